const text = input.text;
const words = text.toLowerCase().match(/\b[a-z']+\b/g) || [];
const stop = new Set(['the', 'a', 'and', 'of', 'to', 'in', 'is', 'it']);
const freq = {};
for (const w of words) {
  if (!stop.has(w)) freq[w] = (freq[w] || 0) + 1;
}
const top = Object.entries(freq)
  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  .slice(0, 5);
console.log(`Total words: ${words.length}, unique: ${new Set(words).size}`);
top;
