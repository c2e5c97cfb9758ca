const data = input.values;
const n = data.length;
const mean = data.reduce((a, b) => a + b, 0) / n;
const sorted = [...data].sort((a, b) => a - b);
const median = n % 2 === 0 ? (sorted[n / 2 - 1] + sorted[n / 2]) / 2 : sorted[Math.floor(n / 2)];
const variance = data.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
const stdDev = Math.sqrt(variance);

({ n, mean: +mean.toFixed(3), median, stdDev: +stdDev.toFixed(3), min: sorted[0], max: sorted[n - 1] });
