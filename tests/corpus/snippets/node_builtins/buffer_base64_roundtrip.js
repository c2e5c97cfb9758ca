const text = 'Hello, Node.js! 👋';
const encoded = Buffer.from(text, 'utf8').toString('base64');
const decoded = Buffer.from(encoded, 'base64').toString('utf8');
console.log('encoded:', encoded);
console.log('decoded:', decoded);
decoded === text;
