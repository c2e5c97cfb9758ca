function percentile(arr, p) {
  const sorted = [...arr].sort((a, b) => a - b);
  const idx = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  if (lo === hi) return sorted[lo];
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (idx - lo);
}

const latencies = input.latencies_ms;
const result = {
  p50: percentile(latencies, 50),
  p90: percentile(latencies, 90),
  p95: percentile(latencies, 95),
  p99: percentile(latencies, 99),
  max: Math.max(...latencies),
};
console.log(result);
result;
