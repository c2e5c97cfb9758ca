const assert = require('assert');
async function load(id) {
  if (id === 0) throw new RangeError('id must be positive');
  return { id };
}
await assert.rejects(load(0), RangeError);
await assert.doesNotReject(load(1));
try {
  await assert.rejects(load(2));
} catch (err) {
  console.log(err.message);
}
'async assertions done';
