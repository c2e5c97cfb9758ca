const crypto = require('crypto');

const master = 'master-key-material';
const salt = 'app-salt';
const encKey = crypto.hkdfSync('sha256', master, salt, 'encryption', 32);
const macKey = crypto.hkdfSync('sha256', master, salt, 'authentication', 32);
({
  enc: Buffer.from(encKey).toString('hex'),
  mac: Buffer.from(macKey).toString('hex'),
  isArrayBuffer: encKey instanceof ArrayBuffer,
});
