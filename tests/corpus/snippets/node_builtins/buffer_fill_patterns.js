const a = Buffer.alloc(8, 'ab');
const b = Buffer.alloc(6).fill(0xff, 2, 4);
const c = Buffer.alloc(5, 'abc', 'utf8');
console.log(a, b, c);
[a.toString(), b.toString('hex'), c.toString()];
