const crypto = require('crypto');

const secret = 'shhhhh';
const b64 = (s) => Buffer.from(s).toString('base64url');
const sign = (data) => crypto.createHmac('sha256', secret).update(data).digest('base64url');

const header = b64('{"alg":"HS256","typ":"JWT"}');
const payload = b64('{"user":"alice","admin":false}');
const token = `${header}.${payload}.${sign(`${header}.${payload}`)}`;

const forgedPayload = b64('{"user":"alice","admin":true}');
const forged = `${header}.${forgedPayload}.${token.split('.')[2]}`;

function isValid(t) {
  const [h, p, s] = t.split('.');
  const expected = Buffer.from(sign(`${h}.${p}`));
  const actual = Buffer.from(s);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

({ original: isValid(token), forged: isValid(forged) });
