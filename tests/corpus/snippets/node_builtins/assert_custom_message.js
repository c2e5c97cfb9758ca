const assert = require('assert');
const results = [];
for (const [actual, expected] of [[1, 1], [2, 3], ['a', 'b']]) {
  try {
    assert.strictEqual(actual, expected, `value mismatch for ${actual}`);
    results.push('pass');
  } catch (err) {
    results.push(err.message.split('\n')[0]);
  }
}
console.log(results);
results;
