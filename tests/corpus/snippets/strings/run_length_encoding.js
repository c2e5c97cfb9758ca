const encode = s => s.replace(/(.)\1*/g, m => `${m.length}${m[0]}`);
const decode = s => s.replace(/(\d+)(\D)/g, (_, n, c) => c.repeat(Number(n)));
const original = 'WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW';
const enc = encode(original);
console.log(enc);
console.log(decode(enc) === original);
`${original.length} -> ${enc.length} chars`;
