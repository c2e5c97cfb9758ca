const crypto = require('crypto');

function hashPassword(password, salt) {
  const derived = crypto.pbkdf2Sync(password, salt, 10000, 32, 'sha256');
  return `${salt}:${derived.toString('hex')}`;
}

function verifyPassword(password, stored) {
  const [salt, hashHex] = stored.split(':');
  const expected = Buffer.from(hashHex, 'hex');
  const actual = crypto.pbkdf2Sync(password, salt, 10000, 32, 'sha256');
  return crypto.timingSafeEqual(expected, actual);
}

const stored = hashPassword('hunter2', 'c0ffee');
console.log(stored);
({ right: verifyPassword('hunter2', stored), wrong: verifyPassword('hunter3', stored) });
