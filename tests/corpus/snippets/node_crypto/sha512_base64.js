const crypto = require('crypto');
const digest = crypto.createHash('sha512').update('password123').digest('base64');
console.log(digest.length);
digest;
