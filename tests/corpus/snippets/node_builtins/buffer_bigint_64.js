const buf = Buffer.alloc(16);
buf.writeBigUInt64BE(2n ** 63n + 5n, 0);
buf.writeBigInt64LE(-42n, 8);
console.log(buf.toString('hex'));
console.log(buf.readBigUInt64BE(0), buf.readBigInt64LE(8));
String(buf.readBigUInt64BE(0));
