const crypto = require('crypto');

const words = ['hello', 'héllo', 'こんにちは', '🌍 world', 'Ωmega'];
for (const w of words) {
  console.log(w.padEnd(10), crypto.createHash('md5').update(w).digest('hex'));
}
