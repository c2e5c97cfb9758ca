const text = 'one fish two fish red fish blue fish';
const counts = new Map();
for (const w of text.split(' ')) {
  counts.set(w, (counts.get(w) || 0) + 1);
}
counts
