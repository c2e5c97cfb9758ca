const memo = {};
function fib(n) {
  if (n <= 1) return n;
  if (memo[n]) return memo[n];
  return (memo[n] = fib(n - 1) + fib(n - 2));
}
console.log(fib(50));
console.log(fib(78) <= Number.MAX_SAFE_INTEGER, fib(79) <= Number.MAX_SAFE_INTEGER);
[10, 20, 30, 40].map(fib);
