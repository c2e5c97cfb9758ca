const { StringDecoder } = require('string_decoder');
const hex = new StringDecoder('hex');
const utf16 = new StringDecoder('utf16le');
const a = hex.write(Buffer.from([1, 2, 255]));
const b = utf16.write(Buffer.from([0x48, 0x00, 0x69])) + utf16.write(Buffer.from([0x00]));
console.log(a, b);
[hex.encoding, utf16.encoding, a, b];
