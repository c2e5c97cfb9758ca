// Exact sum 1/1 + 1/2 + ... + 1/20 as a reduced fraction
const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a; };
let num = 0n, den = 1n;
for (let k = 1n; k <= 20n; k++) {
  num = num * k + den;
  den = den * k;
  const g = gcd(num, den);
  num /= g; den /= g;
}
console.log(`${num}/${den}`);
Number(num) / Number(den);
