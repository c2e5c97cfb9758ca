const values = await Promise.all([1, 2, 3].map(async x => x * x));
const sum = values.reduce((s, v) => s + v, 0);
{ values, sum }
