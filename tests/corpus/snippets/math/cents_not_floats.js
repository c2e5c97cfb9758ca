console.log(0.1 + 0.2);
console.log((0.1 + 0.2).toFixed(2));
const prices = ['19.99', '5.01', '0.10', '0.20', '100.00'];
const cents = prices.reduce((sum, p) => sum + Math.round(parseFloat(p) * 100), 0);
const total = (cents / 100).toFixed(2);
const tax = (Math.round(cents * 0.0825) / 100).toFixed(2);
({ total, tax, grand: ((cents + Math.round(cents * 0.0825)) / 100).toFixed(2) });
