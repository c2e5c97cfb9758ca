const crypto = require('crypto');

for (const name of ['SHA256', 'sha-256', 'sha_256']) {
  try {
    crypto.createHash(name);
    console.log(name, 'ok');
  } catch (e) {
    console.log(name, e.message);
  }
}
