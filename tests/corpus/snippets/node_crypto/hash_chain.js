const crypto = require('crypto');

let value = 'seed';
for (let i = 0; i < 1000; i++) {
  value = crypto.createHash('sha256').update(value).digest('hex');
}
console.log(value);
value.length;
