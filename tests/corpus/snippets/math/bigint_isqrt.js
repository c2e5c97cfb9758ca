function isqrt(n) {
  if (n < 0n) throw new RangeError('negative');
  if (n < 2n) return n;
  let x = n, y = (x + 1n) / 2n;
  while (y < x) { x = y; y = (x + n / x) / 2n; }
  return x;
}
const big = 10n ** 40n + 12345n;
const root = isqrt(big);
console.log(root * root <= big && (root + 1n) ** 2n > big);
// sqrt(2) to 30 decimal places
const scaled = isqrt(2n * 10n ** 60n).toString();
`${scaled[0]}.${scaled.slice(1)}`;
