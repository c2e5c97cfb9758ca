const principal = 10000;
const rate = 0.07;
const compoundsPerYear = 12;
const rows = [];
for (const years of [1, 5, 10, 20, 30]) {
  const amount = principal * Math.pow(1 + rate / compoundsPerYear, compoundsPerYear * years);
  rows.push(`${String(years).padStart(2)} yrs: $${amount.toFixed(2)}`);
}
console.log(rows.join('\n'));
const continuous = principal * Math.exp(rate * 30);
continuous.toFixed(2);
