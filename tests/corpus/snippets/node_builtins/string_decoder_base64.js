const { StringDecoder } = require('string_decoder');
const decoder = new StringDecoder('base64');
const out = [decoder.write(Buffer.from('ab')), decoder.write(Buffer.from('cd')), decoder.end()];
console.log(out);
out.join('') === Buffer.from('abcd').toString('base64');
