const buf = Buffer.alloc(4);
try {
  buf.writeUInt8(300, 0);
} catch (err) {
  console.log(err.name, err.code);
  console.log(err.message);
}
try {
  buf.readUInt32LE(2);
} catch (err) {
  console.log(err.code + ': ' + err.message);
}
buf;
