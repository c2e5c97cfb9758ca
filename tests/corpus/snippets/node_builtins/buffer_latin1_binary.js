const bytes = Buffer.from([0x48, 0xe9, 0x6c, 0x6c, 0xf6]);
const latin = bytes.toString('latin1');
console.log(latin, bytes.toString('binary') === latin);
console.log(Buffer.from(latin, 'latin1').equals(bytes));
console.log(bytes.toString('utf8'));
latin;
