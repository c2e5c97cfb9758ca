const items = [
  { name: 'Widget', qty: 3, price: 4.99 },
  { name: 'Gizmo (large)', qty: 1, price: 129.5 },
  { name: 'Cable', qty: 10, price: 0.45 },
];
const lines = items.map(i => `${i.name.padEnd(16)}${String(i.qty).padStart(4)}${(i.qty * i.price).toFixed(2).padStart(10)}`);
const total = items.reduce((s, i) => s + i.qty * i.price, 0);
const invoice = [
  'Item              Qty    Amount',
  '-'.repeat(30),
  ...lines,
  '-'.repeat(30),
  `${'TOTAL'.padEnd(20)}${total.toFixed(2).padStart(10)}`,
].join('\n');
invoice;
