const [, , ...args] = process.argv;
const numbers = args.map(Number);
numbers.reduce((a, b) => a + b, 0);
