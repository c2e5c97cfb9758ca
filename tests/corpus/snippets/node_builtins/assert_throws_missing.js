const assert = require('assert');
try {
  assert.throws(() => 42, Error, 'should have thrown');
} catch (err) {
  console.log(err.message);
}
try {
  assert.throws(() => { throw new Error('actual') }, { message: 'expected' });
} catch (err) {
  console.log(err.message);
}
'checked';
