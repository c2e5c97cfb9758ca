const content = 'line one\nline two\nline three\n'.repeat(3);
const b64 = Buffer.from(content).toString('base64');
const wrapped = b64.match(/.{1,40}/g).join('\n');
console.log(wrapped);
Buffer.from(wrapped, 'base64').toString() === content;
