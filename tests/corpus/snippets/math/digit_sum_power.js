const digits = (2n ** 1000n).toString();
const sum = [...digits].reduce((s, d) => s + Number(d), 0);
console.log(`2^1000 has ${digits.length} digits`);
sum;
