const total = [1, 2, 3].reduce((a, b) => a + b, 0);
console.log(total);
process.exit(0);
