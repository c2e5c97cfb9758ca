const crypto = require('crypto');

function newSessionId(userId) {
  const nonce = crypto.randomBytes(16);
  return crypto.createHash('sha256').update(`${userId}:`).update(nonce).digest('base64url');
}

const a = newSessionId(42);
const b = newSessionId(42);
({ length: a.length, different: a !== b });
