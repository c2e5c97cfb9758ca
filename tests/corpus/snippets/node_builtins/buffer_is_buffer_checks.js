const values = [Buffer.from('x'), new Uint8Array(2), 'text', [1, 2]];
const kinds = values.map((v) => [Buffer.isBuffer(v), v instanceof Uint8Array]);
console.log(kinds);
console.log(Buffer.isEncoding('utf8'), Buffer.isEncoding('UTF-16LE'), Buffer.isEncoding('utf32'));
kinds;
