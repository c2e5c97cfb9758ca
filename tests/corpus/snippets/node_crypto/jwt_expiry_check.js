const crypto = require('crypto');

const SECRET = 'dev-secret';
const now = 1700000000; // fixed "current time" in seconds

function makeToken(claims) {
  const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const s = crypto.createHmac('sha256', SECRET).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${s}`;
}

function check(token) {
  const [h, p, s] = token.split('.');
  const good = crypto.createHmac('sha256', SECRET).update(`${h}.${p}`).digest('base64url') === s;
  if (!good) return 'bad signature';
  const { exp } = JSON.parse(Buffer.from(p, 'base64url').toString());
  return exp > now ? 'valid' : 'expired';
}

[makeToken({ sub: 1, exp: now + 3600 }), makeToken({ sub: 2, exp: now - 1 })].map(check);
