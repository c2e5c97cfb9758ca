const assert = require('node:assert');
const expected = { id: 7, name: 'Widget', tags: ['a', 'b'] };
const actual = { id: 7, name: 'Widget', tags: ['a', 'c'] };
try {
  assert.deepStrictEqual(actual, expected);
} catch (err) {
  console.log(err.message);
}
'done';
