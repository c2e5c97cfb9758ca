const assert = require('assert');
function add(a, b) { return a + b; }
assert.strictEqual(add(2, 3), 5);
assert.deepStrictEqual({ sum: add(1, 1) }, { sum: 2 });
assert.ok(add(0, 1));
console.log('all assertions passed');
'ok';
