const { randomBytes } = require('crypto');

function generateToken(bytes = 24) {
  return randomBytes(bytes).toString('base64url');
}

const tokens = Array.from({ length: 5 }, () => generateToken());
console.log(tokens.every((t) => /^[A-Za-z0-9_-]{32}$/.test(t)));
new Set(tokens).size;
