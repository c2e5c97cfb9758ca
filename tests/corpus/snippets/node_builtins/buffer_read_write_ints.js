const buf = Buffer.alloc(12);
let offset = 0;
offset = buf.writeInt8(-5, offset);
offset = buf.writeUInt16BE(65535, offset);
offset = buf.writeInt32LE(-123456, offset);
offset = buf.writeFloatBE(3.5, offset);
console.log(buf, offset);
[buf.readInt8(0), buf.readUInt16BE(1), buf.readInt32LE(3), buf.readFloatBE(7)];
