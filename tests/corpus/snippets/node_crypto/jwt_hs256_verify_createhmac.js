const crypto = require('crypto');

const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const secret = 'your-256-bit-secret';

function verify(token, secret) {
  const [header, payload, signature] = token.split('.');
  const expected = crypto.createHmac('sha256', secret).update(header + '.' + payload).digest('base64url');
  if (expected !== signature) throw new Error('invalid signature');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

const claims = verify(token, secret);
console.log(claims);
try {
  verify(token, 'wrong-secret');
} catch (e) {
  console.log(e.message);
}
claims.name;
