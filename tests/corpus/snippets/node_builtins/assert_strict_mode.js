const assert = require('assert/strict');
try {
  assert.equal('1', 1);
} catch (err) {
  console.log(err.message);
}
try {
  assert.deepEqual([1, 2], [1, '2']);
} catch (err) {
  console.log(err.message);
}
assert.equal(2, 2);
'strict ok';
