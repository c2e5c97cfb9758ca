const items = [
  { name: 'map', w: 9, v: 150 }, { name: 'compass', w: 13, v: 35 }, { name: 'water', w: 153, v: 200 },
  { name: 'sandwich', w: 50, v: 160 }, { name: 'glucose', w: 15, v: 60 }, { name: 'tin', w: 68, v: 45 },
  { name: 'banana', w: 27, v: 60 }, { name: 'apple', w: 39, v: 40 },
];
const cap = 200;
const dp = Array.from({ length: items.length + 1 }, () => Array(cap + 1).fill(0));
for (let i = 1; i <= items.length; i++) {
  const { w, v } = items[i - 1];
  for (let c = 0; c <= cap; c++) {
    dp[i][c] = dp[i - 1][c];
    if (w <= c) dp[i][c] = Math.max(dp[i][c], dp[i - 1][c - w] + v);
  }
}
const chosen = [];
for (let i = items.length, c = cap; i > 0; i--) {
  if (dp[i][c] !== dp[i - 1][c]) { chosen.push(items[i - 1].name); c -= items[i - 1].w; }
}
console.log('value:', dp[items.length][cap]);
chosen.reverse();
