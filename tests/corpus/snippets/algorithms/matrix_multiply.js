const multiply = (A, B) => A.map(row => B[0].map((_, j) => row.reduce((sum, a, k) => sum + a * B[k][j], 0)));
const A = [[1, 2, 3], [4, 5, 6]];
const B = [[7, 8], [9, 10], [11, 12]];
console.log(multiply(A, B));
// Fibonacci via matrix power
let M = [[1, 1], [1, 0]], R = [[1, 0], [0, 1]];
for (let n = 30; n > 0; n >>= 1) {
  if (n & 1) R = multiply(R, M);
  M = multiply(M, M);
}
R[0][1];
