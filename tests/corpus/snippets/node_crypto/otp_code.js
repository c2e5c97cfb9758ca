const crypto = require('crypto');

function generateOtp(digits = 6) {
  return crypto.randomInt(0, 10 ** digits).toString().padStart(digits, '0');
}

const codes = Array.from({ length: 20 }, () => generateOtp());
codes.every((c) => /^\d{6}$/.test(c));
