const crypto = require('crypto');

const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(50);
const whole = crypto.createHash('md5').update(text).digest('hex');

const hash = crypto.createHash('md5');
for (let i = 0; i < text.length; i += 64) {
  hash.update(text.slice(i, i + 64));
}
const chunked = hash.digest('hex');

console.log(whole);
console.log(chunked === whole);
