const util = require('util');
const values = [Buffer.alloc(2), new Uint8Array(2), new ArrayBuffer(2), new DataView(new ArrayBuffer(2))];
const kinds = values.map((v) => [util.types.isUint8Array(v), util.types.isArrayBuffer(v), util.types.isArrayBufferView(v), util.types.isDataView(v), Buffer.isBuffer(v)]);
console.log(kinds);
kinds;
