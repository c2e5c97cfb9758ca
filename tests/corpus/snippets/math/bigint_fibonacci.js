let a = 0n, b = 1n;
for (let i = 0; i < 200; i++) {
  [a, b] = [b, a + b];
}
a.toString();
