const crypto = require('crypto');

const password = 'correct horse battery staple';
const salt = 'f3a1c2b4d5e6f708';
const hash = crypto.pbkdf2Sync(password, salt, 100000, 64, 'sha512').toString('hex');
console.log(`${salt}:${hash}`.length);
hash.slice(0, 32);
