const crypto = require('crypto');

const bytes = new Uint8Array(256);
for (let i = 0; i < bytes.length; i++) bytes[i] = i;
const view = new DataView(bytes.buffer, 16, 32);
[
  crypto.createHash('sha256').update(bytes).digest('hex'),
  crypto.createHash('sha256').update(bytes.subarray(16, 48)).digest('hex') === crypto.createHash('sha256').update(view).digest('hex'),
];
