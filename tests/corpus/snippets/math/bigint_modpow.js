function modPow(base, exp, mod) {
  let result = 1n;
  base %= mod;
  while (exp > 0n) {
    if (exp & 1n) result = (result * base) % mod;
    base = (base * base) % mod;
    exp >>= 1n;
  }
  return result;
}

// Tiny RSA round trip
const p = 61n, q = 53n;
const n = p * q;
const e = 17n, d = 2753n;
const message = 65n;
const cipher = modPow(message, e, n);
const plain = modPow(cipher, d, n);
console.log({ n, cipher, plain });
modPow(2n, 10n ** 18n, 1_000_000_007n);
