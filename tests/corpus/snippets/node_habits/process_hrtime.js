const start = process.hrtime.bigint();
let x = 0;
for (let i = 0; i < 1e5; i++) x += i;
const ns = process.hrtime.bigint() - start;
console.log(`took ${ns} ns`);
x;
