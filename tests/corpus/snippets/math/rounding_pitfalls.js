const values = [1.005, 2.675, 1.255, 0.615];
const naive = values.map(v => Math.round(v * 100) / 100);
const epsilon = values.map(v => Math.round((v + Number.EPSILON) * 100) / 100);
const fixed = values.map(v => v.toFixed(2));
console.log('naive  ', naive);
console.log('epsilon', epsilon);
console.log('toFixed', fixed);
Math.abs(0.3 - (0.1 + 0.2)) < Number.EPSILON;
