const { StringDecoder } = require('node:string_decoder');
const bytes = Buffer.from('I ❤️ Node 🚀!');
const decoder = new StringDecoder('utf8');
let text = '';
for (let i = 0; i < bytes.length; i += 3) text += decoder.write(bytes.subarray(i, i + 3));
text += decoder.end();
console.log(text);
text === bytes.toString();
