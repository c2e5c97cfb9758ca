type Order = { id: string; items: { price: number; qty: number }[] };

const orders = input as Order[];
const totals = orders.map(o => ({
  id: o.id,
  total: o.items.reduce((s, i) => s + i.price * i.qty, 0),
}));
const max = totals.reduce((a, b) => (a.total > b.total ? a : b));
console.log(totals);
(max as { id: string }).id;
