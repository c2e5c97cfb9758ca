const moves = [];
function hanoi(n, from, to, via) {
  if (n === 0) return;
  hanoi(n - 1, from, via, to);
  moves.push(`${from}->${to}`);
  hanoi(n - 1, via, to, from);
}
hanoi(3, 'A', 'C', 'B');
console.log(moves.join(' '));
`${moves.length} moves (2^3 - 1 = ${2 ** 3 - 1})`;
