const crypto = require('crypto');

const data = 'encode me';
const out = {};
for (const enc of ['hex', 'base64', 'base64url']) {
  const d = crypto.createHash('sha256').update(data).digest(enc);
  out[enc] = { value: d, length: d.length };
}
const raw = crypto.createHash('sha256').update(data).digest();
out.bufferLength = raw.length;
out;
