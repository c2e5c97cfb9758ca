function factorial(n) {
  let result = 1n;
  for (let i = 2n; i <= n; i++) result *= i;
  return result;
}
const f50 = factorial(50n);
console.log(`50! has ${f50.toString().length} digits`);
f50;
