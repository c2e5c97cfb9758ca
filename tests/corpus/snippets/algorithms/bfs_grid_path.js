const grid = [
  'S.#.....',
  '.##.###.',
  '....#...',
  '.##...#E',
];
const rows = grid.length, cols = grid[0].length;
let start, end;
grid.forEach((row, r) => [...row].forEach((c, col) => {
  if (c === 'S') start = [r, col];
  if (c === 'E') end = [r, col];
}));
const dist = new Map([[start.join(), 0]]);
const queue = [start];
while (queue.length) {
  const [r, c] = queue.shift();
  for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const nr = r + dr, nc = c + dc;
    if (nr < 0 || nc < 0 || nr >= rows || nc >= cols || grid[nr][nc] === '#') continue;
    const k = `${nr},${nc}`;
    if (dist.has(k)) continue;
    dist.set(k, dist.get(`${r},${c}`) + 1);
    queue.push([nr, nc]);
  }
}
dist.get(end.join());
