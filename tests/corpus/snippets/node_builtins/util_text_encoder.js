const { TextEncoder, TextDecoder } = require('util');
const encoded = new TextEncoder().encode('héllo');
console.log(encoded);
const decoded = new TextDecoder().decode(encoded);
[encoded.length, decoded];
