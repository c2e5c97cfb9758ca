const pivot = {};
const quarters = new Set();
for (const { region, quarter, sales } of input.rows) {
  pivot[region] ??= {};
  pivot[region][quarter] = (pivot[region][quarter] ?? 0) + sales;
  quarters.add(quarter);
}
const qs = [...quarters].sort();
const lines = [['region', ...qs, 'total'].join('\t')];
for (const region of Object.keys(pivot).sort()) {
  const vals = qs.map(q => pivot[region][q] ?? 0);
  lines.push([region, ...vals, vals.reduce((a, b) => a + b, 0)].join('\t'));
}
console.log(lines.join('\n'));
