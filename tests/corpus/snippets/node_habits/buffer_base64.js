const encoded = Buffer.from('Hello, World!').toString('base64');
const decoded = Buffer.from(encoded, 'base64').toString('utf8');
({ encoded, decoded });
