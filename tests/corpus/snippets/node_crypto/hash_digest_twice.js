const crypto = require('crypto');

const hash = crypto.createHash('sha256').update('once');
console.log(hash.digest('hex'));
try {
  hash.digest('hex');
} catch (err) {
  console.log(err.code);
}
try {
  hash.update('more');
} catch (err) {
  console.log(err.message);
}
