const buf = Buffer.from('deadbeef00ff', 'hex');
console.log(buf);
console.log(buf.length, buf[0], buf.readUInt32BE(0).toString(16));
Array.from(buf);
