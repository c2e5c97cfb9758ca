const crypto = require('crypto');

const rolls = Array.from({ length: 6000 }, () => crypto.randomInt(1, 7));
const counts = rolls.reduce((acc, r) => ((acc[r] = (acc[r] || 0) + 1), acc), {});
console.log(Object.keys(counts));
Object.values(counts).every((c) => c > 800 && c < 1200);
