const crypto = require('crypto');

crypto.randomBytes(48, (err, buffer) => {
  if (err) throw err;
  const token = buffer.toString('hex');
  console.log('callback', token.length);
});
console.log('scheduled');
