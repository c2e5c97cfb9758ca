const spend = new Map();
for (const { customer, total } of input) {
  spend.set(customer, (spend.get(customer) ?? 0) + total);
}
const top3 = [...spend.entries()]
  .sort(([, a], [, b]) => b - a)
  .slice(0, 3)
  .map(([name, total], i) => `${i + 1}. ${name}: $${total.toFixed(2)}`);
console.log(top3.join('\n'));
top3.length;
