const cache = new Map([[1, 1]]);
function collatzLength(n) {
  const path = [];
  while (!cache.has(n)) {
    path.push(n);
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
  }
  let len = cache.get(n);
  for (let i = path.length - 1; i >= 0; i--) cache.set(path[i], ++len);
  return len;
}
let best = 0, bestN = 0;
for (let i = 1; i < 100000; i++) {
  const len = collatzLength(i);
  if (len > best) { best = len; bestN = i; }
}
({ start: bestN, length: best });
