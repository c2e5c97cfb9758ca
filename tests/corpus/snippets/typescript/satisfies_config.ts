type Rates = Record<string, number>;

const taxRates = {
  CA: 0.0725,
  NY: 0.04,
  TX: 0.0625,
} satisfies Rates;

const price = 199.99;
const withTax = Object.fromEntries(
  Object.entries(taxRates).map(([state, rate]) => [state, +(price * (1 + rate)).toFixed(2)]),
);
withTax;
