const scores = input.map(r => r.score);
const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / scores.length);
const ranked = input
  .map(r => ({ ...r, z: ((r.score - mean) / sd).toFixed(2) }))
  .sort((a, b) => b.score - a.score)
  .map((r, i) => ({ rank: i + 1, ...r }));
ranked;
