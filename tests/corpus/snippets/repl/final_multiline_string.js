const rows = [['Alice', 93], ['Bob', 78], ['Carmen', 88]];
let report = 'Name     Score\n';
for (const [name, score] of rows) {
  report += `${name.padEnd(9)}${score}\n`;
}
report += `Average: ${(rows.reduce((s, [, v]) => s + v, 0) / rows.length).toFixed(1)}`;
report
