const buf = Buffer.alloc(10);
const written = buf.write('héllo wörld');
console.log(written, buf.toString('utf8', 0, written));
const hexWritten = buf.write('cafebabe', 2, 'hex');
console.log(hexWritten, buf);
buf.toString('hex');
