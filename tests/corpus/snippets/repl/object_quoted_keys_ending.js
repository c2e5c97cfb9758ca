const prices = [19.99, 5.01, 74.5];
const subtotal = prices.reduce((a, b) => a + b, 0);
{ "subtotal": subtotal.toFixed(2), "tax": (subtotal * 0.08).toFixed(2), "items": prices.length }
