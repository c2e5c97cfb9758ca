const { StringDecoder } = require('string_decoder');
const decoder = new StringDecoder();
const first = decoder.write(Buffer.from([0x61, 0xe2, 0x82]));
const last = decoder.end();
console.log(JSON.stringify(first), JSON.stringify(last));
[first, last];
