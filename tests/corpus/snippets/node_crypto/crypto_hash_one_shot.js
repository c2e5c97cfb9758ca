const crypto = require('node:crypto');

console.log(crypto.hash('sha1', 'hello'));
console.log(crypto.hash('md5', 'hello', 'base64'));
crypto.hash('sha256', 'hello');
