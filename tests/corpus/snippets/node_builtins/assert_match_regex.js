const assert = require('assert');
const email = 'user@example.com';
assert.match(email, /^[^@]+@[^@]+\.[a-z]+$/);
try {
  assert.match('not-an-email', /@/);
} catch (err) {
  console.log(err.message);
}
try {
  assert.doesNotMatch(email, /example/);
} catch (err) {
  console.log(err.message);
}
'regex checks';
