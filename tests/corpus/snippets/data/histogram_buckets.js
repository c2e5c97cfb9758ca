const ages = input.ages;
const buckets = {};
for (const age of ages) {
  const lo = Math.floor(age / 10) * 10;
  const label = `${lo}-${lo + 9}`;
  buckets[label] = (buckets[label] || 0) + 1;
}
const labels = Object.keys(buckets).sort((a, b) => parseInt(a) - parseInt(b));
for (const l of labels) {
  console.log(`${l.padStart(5)} | ${'#'.repeat(buckets[l])} ${buckets[l]}`);
}
