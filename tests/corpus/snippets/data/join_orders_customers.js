const { customers, orders } = input;
const byId = Object.fromEntries(customers.map(c => [c.id, c]));
const report = orders.map(o => ({
  order: o.id,
  customer: byId[o.customerId]?.name ?? 'UNKNOWN',
  country: byId[o.customerId]?.country ?? '-',
  amount: o.amount,
}));
console.table(report);
report.filter(r => r.customer === 'UNKNOWN').length
