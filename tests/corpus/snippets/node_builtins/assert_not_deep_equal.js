const assert = require('assert');
assert.notDeepStrictEqual({ a: 1 }, { a: '1' });
try {
  assert.notDeepStrictEqual([1, 2], [1, 2]);
} catch (err) {
  console.log(err.message);
}
try {
  assert.notStrictEqual('same', 'same');
} catch (err) {
  console.log(err.message);
}
'ok';
