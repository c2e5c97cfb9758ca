const rows = [['id', 'name'], [1, 'Ada'], [2, 'Linus']];
for (const row of rows) {
  process.stdout.write(row.join('\t') + '\n');
}
rows.length;
