const crypto = require('crypto');

const secret = 'It\'s a Secret to Everybody';
const payload = 'Hello, World!';
const signatureHeader = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

function verifySignature(secret, payload, header) {
  const expected = 'sha256=' + crypto.createHmac('sha256', secret).update(payload).digest('hex');
  const a = Buffer.from(expected);
  const b = Buffer.from(header);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

console.log('valid:', verifySignature(secret, payload, signatureHeader));
console.log('tampered:', verifySignature(secret, payload + '!', signatureHeader));
verifySignature(secret, payload, signatureHeader);
