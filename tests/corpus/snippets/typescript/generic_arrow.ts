const identity = <T,>(x: T): T => x;
const pluck = <T, K extends keyof T>(arr: T[], key: K): T[K][] => arr.map(o => o[key]);
const sumBy = <T>(arr: T[], fn: (x: T) => number): number => arr.reduce((s, x) => s + fn(x), 0);

const products = [
  { sku: 'A1', price: 9.99, qty: 3 },
  { sku: 'B2', price: 24.5, qty: 1 },
  { sku: 'C3', price: 3.25, qty: 8 },
];
console.log(identity<number>(42));
console.log(pluck(products, 'sku'));
sumBy(products, p => p.price * p.qty).toFixed(2);
