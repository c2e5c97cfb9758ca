const delay = (ms, v) => new Promise(res => setTimeout(() => res(v), ms));
const [a, b] = await Promise.all([delay(5, 'first'), delay(1, 'second')]);
for (const v of [a, b]) {
  console.log(v);
}
[a, b, a.length + b.length]
