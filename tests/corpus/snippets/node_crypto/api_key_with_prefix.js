const crypto = require('crypto');

function createApiKey(prefix) {
  const secret = crypto.randomBytes(16).toString('hex');
  const checksum = crypto.createHash('sha256').update(secret).digest('hex').slice(0, 6);
  return `${prefix}_${secret}_${checksum}`;
}

const key = createApiKey('sk_live');
const parts = key.split('_');
const secret = parts[2];
const checksum = parts[3];
console.log(key.length);
checksum === crypto.createHash('sha256').update(secret).digest('hex').slice(0, 6);
