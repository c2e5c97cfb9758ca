const assert = require('assert');
const encoded = Buffer.from('abc').toString('base64');
assert.strictEqual(encoded, 'YWJj');
try {
  assert.deepStrictEqual(Buffer.from('abc'), Buffer.from('abd'));
} catch (err) {
  console.log(err.message);
}
encoded;
