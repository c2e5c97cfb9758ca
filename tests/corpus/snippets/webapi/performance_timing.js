const t0 = performance.now();
let acc = 0;
for (let i = 0; i < 100000; i++) acc += Math.sqrt(i);
const t1 = performance.now();
const elapsed = t1 - t0;
console.log(`loop took ${elapsed.toFixed(3)} ms`);
[typeof t0, elapsed >= 0, Math.round(acc)];
