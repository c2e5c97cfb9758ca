const principal = 250000;
const annualRate = 0.065;
const years = 30;

const r = annualRate / 12;
const n = years * 12;
const payment = principal * (r * Math.pow(1 + r, n)) / (Math.pow(1 + r, n) - 1);
const totalPaid = payment * n;
const totalInterest = totalPaid - principal;

console.log(`Monthly payment: $${payment.toFixed(2)}`);
console.log(`Total interest: $${totalInterest.toFixed(2)}`);
payment.toFixed(2);
