const { randomFillSync } = require('crypto');

const values = randomFillSync(new Uint32Array(8));
const floats = Array.from(values, (v) => v / 2 ** 32);
console.log(values.length);
floats.every((f) => f >= 0 && f < 1);
