const util = require('util');
const packet = { header: Buffer.from([1, 2, 3, 4]), body: { payload: Buffer.from('hi'), checksum: 0xab } };
console.log(util.inspect(packet, { depth: null }));
console.log(packet);
util.inspect(packet.header);
