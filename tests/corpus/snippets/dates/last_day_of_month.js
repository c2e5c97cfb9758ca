const year = 2024;
const lastDays = [];
for (let month = 0; month < 12; month++) {
  const last = new Date(year, month + 1, 0);
  lastDays.push(last.getDate());
}
const names = Array.from({ length: 12 }, (_, i) => new Date(year, i, 1).toLocaleString('en-US', { month: 'short' }));
console.log(names.map((n, i) => `${n}:${lastDays[i]}`).join(' '));
lastDays.reduce((a, b) => a + b);
