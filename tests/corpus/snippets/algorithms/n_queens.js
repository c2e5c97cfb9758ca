function solveNQueens(n) {
  let count = 0;
  const cols = new Set(), d1 = new Set(), d2 = new Set();
  let first = null;
  const placement = [];
  (function place(r) {
    if (r === n) { count++; if (!first) first = [...placement]; return; }
    for (let c = 0; c < n; c++) {
      if (cols.has(c) || d1.has(r - c) || d2.has(r + c)) continue;
      cols.add(c); d1.add(r - c); d2.add(r + c); placement.push(c);
      place(r + 1);
      cols.delete(c); d1.delete(r - c); d2.delete(r + c); placement.pop();
    }
  })(0);
  return { count, first };
}
const { count, first } = solveNQueens(8);
console.log(first.map(c => '.'.repeat(c) + 'Q' + '.'.repeat(7 - c)).join('\n'));
count;
