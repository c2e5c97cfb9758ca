const crypto = require('crypto');
const hash = crypto.scryptSync('password', 'salt', 64).toString('hex');
hash.length;
