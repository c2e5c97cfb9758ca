const totals = input.reduce((acc, { category, amount }) => {
  acc[category] = (acc[category] || 0) + amount;
  return acc;
}, {});

const sorted = Object.entries(totals)
  .sort((a, b) => b[1] - a[1])
  .map(([category, total]) => ({ category, total: Math.round(total * 100) / 100 }));

sorted;
