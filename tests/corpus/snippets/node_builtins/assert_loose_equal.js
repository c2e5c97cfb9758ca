const assert = require('assert');
assert.equal('42', 42);
assert.deepEqual({ a: 1 }, { a: '1' });
assert.notStrictEqual('42', 42);
try {
  assert.notEqual(1, '1');
} catch (err) {
  console.log(err.message);
}
try {
  assert.deepEqual({ a: 1 }, { a: 2 });
} catch (err) {
  console.log(err.message);
}
'loose checks';
