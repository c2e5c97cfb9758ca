function binomial(n, k) {
  n = BigInt(n); k = BigInt(k);
  if (k > n - k) k = n - k;
  let result = 1n;
  for (let i = 1n; i <= k; i++) {
    result = result * (n - k + i) / i;
  }
  return result;
}
console.log('C(10,3) =', binomial(10, 3));
binomial(100, 50);
