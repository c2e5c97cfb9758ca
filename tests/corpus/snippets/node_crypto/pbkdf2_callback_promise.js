const crypto = require('crypto');

function pbkdf2Async(password, salt) {
  return new Promise((resolve, reject) => {
    crypto.pbkdf2(password, salt, 2048, 32, 'sha256', (err, key) => (err ? reject(err) : resolve(key)));
  });
}

const key = await pbkdf2Async('secret', 'salt');
key.toString('hex');
