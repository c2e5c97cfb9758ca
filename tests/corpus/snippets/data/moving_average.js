const prices = input.prices;
const window = 3;
const sma = [];
for (let i = window - 1; i < prices.length; i++) {
  const slice = prices.slice(i - window + 1, i + 1);
  sma.push(Number((slice.reduce((a, b) => a + b) / window).toFixed(2)));
}
sma
