const ip = '192.168.1.42';
const buf = Buffer.from(ip.split('.').map(Number));
const asInt = buf.readUInt32BE(0);
const back = Buffer.alloc(4);
back.writeUInt32BE(asInt);
console.log(asInt, [...back].join('.'));
({ asInt, hex: buf.toString('hex') });
