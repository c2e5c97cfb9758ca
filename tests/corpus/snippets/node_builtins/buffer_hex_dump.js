const data = Buffer.from('Node.js buffers are Uint8Arrays!');
const lines = [];
for (let i = 0; i < data.length; i += 8) {
  const chunk = data.subarray(i, i + 8);
  const hex = [...chunk].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  lines.push(`${i.toString(16).padStart(4, '0')}  ${hex.padEnd(23)}  ${chunk.toString('latin1')}`);
}
console.log(lines.join('\n'));
lines.length;
