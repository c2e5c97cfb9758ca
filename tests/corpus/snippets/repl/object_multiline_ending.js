const orders = [{ total: 20 }, { total: 35.5 }, { total: 12.25 }];
const total = orders.reduce((s, o) => s + o.total, 0);
const count = orders.length;
{
  total,
  count,
  average: total / count
}
