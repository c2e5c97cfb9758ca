const a = Buffer.from('The cat sat on the mat');
const b = Buffer.from('The cat sat on the hat');
const diffs = [];
for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) diffs.push({ offset: i, a: a[i]?.toString(16), b: b[i]?.toString(16) });
console.log(diffs, Buffer.compare(a, b));
diffs.length;
