const byMonth = {};
for (const order of input.orders) {
  const month = order.date.slice(0, 7); // YYYY-MM
  byMonth[month] ??= { count: 0, revenue: 0 };
  byMonth[month].count++;
  byMonth[month].revenue += order.qty * order.price;
}
for (const m of Object.keys(byMonth)) {
  byMonth[m].revenue = Number(byMonth[m].revenue.toFixed(2));
}
byMonth
