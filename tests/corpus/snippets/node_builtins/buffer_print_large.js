const big = Buffer.alloc(64, 7);
console.log(big);
console.log({ small: Buffer.from([1, 2, 3]) });
big.length;
