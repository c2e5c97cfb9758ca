const assert = require('assert');
try {
  assert.strictEqual(1 + 1, 3);
} catch (err) {
  console.log(err.name, err.code);
  console.log(err.message);
  console.log(err.actual, err.expected, err.operator);
}
'done';
