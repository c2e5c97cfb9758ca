const crypto = require('crypto');

try {
  crypto.randomInt(10, 1);
} catch (e) {
  console.log(e.code, e.message);
}
try {
  crypto.randomInt(0, 2 ** 49);
} catch (e) {
  console.log(e.code);
}
crypto.randomInt(5, 6);
