const crypto = require('crypto');

function shuffle(array) {
  const a = array.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = crypto.randomInt(0, i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const deck = Array.from({ length: 52 }, (_, i) => i);
const shuffled = shuffle(deck);
[shuffled.length, [...shuffled].sort((x, y) => x - y).every((v, i) => v === i)];
