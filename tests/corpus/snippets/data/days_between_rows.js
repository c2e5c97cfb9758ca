const MS_PER_DAY = 24 * 60 * 60 * 1000;
const rows = input.tickets.map(t => {
  const opened = new Date(t.opened);
  const closed = new Date(t.closed);
  return { id: t.id, days: Math.round((closed - opened) / MS_PER_DAY) };
});
const avg = rows.reduce((s, r) => s + r.days, 0) / rows.length;
console.log(rows);
`Average resolution: ${avg.toFixed(1)} days`;
