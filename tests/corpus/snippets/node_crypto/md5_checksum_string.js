const crypto = require('crypto');
const hash = crypto.createHash('md5').update('hello world').digest('hex');
console.log(hash);
