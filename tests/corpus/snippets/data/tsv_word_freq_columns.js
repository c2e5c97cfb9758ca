const rows = input.split('\n').filter(Boolean).map(line => line.split('\t'));
const [header, ...body] = rows;
const col = header.indexOf('status');
const counts = {};
for (const r of body) counts[r[col]] = (counts[r[col]] ?? 0) + 1;
const pct = Object.fromEntries(
  Object.entries(counts).map(([k, v]) => [k, `${((v / body.length) * 100).toFixed(1)}%`])
);
pct;
