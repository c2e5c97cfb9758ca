const { StringDecoder } = require('string_decoder');
const decoder = new StringDecoder('utf8');
const euro = Buffer.from('€');
const parts = [decoder.write(euro.subarray(0, 1)), decoder.write(euro.subarray(1, 2)), decoder.write(euro.subarray(2))];
console.log(parts);
parts.join('') + decoder.end();
