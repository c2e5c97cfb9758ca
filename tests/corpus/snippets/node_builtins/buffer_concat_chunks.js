const chunks = ['first,', 'second,', 'third'].map((s) => Buffer.from(s));
const all = Buffer.concat(chunks);
console.log(all.toString());
console.log(Buffer.concat(chunks, 10).toString());
console.log(all.length, chunks.reduce((n, c) => n + c.length, 0));
all.toString().split(',');
