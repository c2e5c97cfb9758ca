const counts = new Map<string, number>();
const seen = new Set<number>();
const text = 'the cat and the hat and the bat';
for (const w of text.split(' ')) counts.set(w, (counts.get(w) ?? 0) + 1);
[3, 1, 3, 2, 1].forEach(n => seen.add(n));

const parsed = JSON.parse('{"a": 1, "b": [2, 3]}') as { a: number; b: number[] };
const sorted = Array.from<[string, number]>(counts.entries()).sort((x, y) => y[1] - x[1]);
const result = Promise.resolve<number>(parsed.a + parsed.b.length);
console.log(sorted[0], [...seen]);
await result;
