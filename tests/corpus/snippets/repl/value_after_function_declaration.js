const n = 10;
function triangular(k) {
  return (k * (k + 1)) / 2;
}
triangular(n)
