const crypto = require('crypto');

const lines = ['first line', 'second line', 'third line'];
const hash = crypto.createHash('sha256');
const checkpoints = [];
for (const line of lines) {
  hash.update(line + '\n');
  checkpoints.push(hash.copy().digest('hex').slice(0, 12));
}
console.log(checkpoints);
hash.digest('hex') === crypto.createHash('sha256').update(lines.join('\n') + '\n').digest('hex');
