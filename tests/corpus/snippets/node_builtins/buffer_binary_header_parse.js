const header = Buffer.alloc(16);
header.write('RIFF', 0, 'ascii');
header.writeUInt32LE(36 + 1024, 4);
header.write('WAVE', 8, 'ascii');
header.writeUInt16LE(1, 12);
header.writeUInt16LE(2, 14);
console.log(header.toString('hex'));
const parsed = {
  chunkId: header.toString('ascii', 0, 4),
  chunkSize: header.readUInt32LE(4),
  format: header.toString('ascii', 8, 12),
  audioFormat: header.readUInt16LE(12),
  channels: header.readUInt16LE(14),
};
parsed;
