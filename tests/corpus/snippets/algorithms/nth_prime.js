function isPrime(n) {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let i = 3; i * i <= n; i += 2) if (n % i === 0) return false;
  return true;
}
let count = 0, n = 1;
while (count < 10001) { n++; if (isPrime(n)) count++; }
n;
