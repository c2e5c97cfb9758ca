function factorize(n) {
  const factors = [];
  for (let d = 2n; d * d <= n; d += d === 2n ? 1n : 2n) {
    while (n % d === 0n) { factors.push(d); n /= d; }
  }
  if (n > 1n) factors.push(n);
  return factors;
}
const n = 600851475143n;
const f = factorize(n);
console.log(f.join(' × '));
f[f.length - 1];
