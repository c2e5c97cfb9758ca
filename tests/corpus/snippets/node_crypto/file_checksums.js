const crypto = require('crypto');

const files = input.files;
const report = files.map(({ name, content }) => ({
  name,
  bytes: Buffer.byteLength(content),
  md5: crypto.createHash('md5').update(content).digest('hex'),
  sha256: crypto.createHash('sha256').update(content).digest('hex').slice(0, 16),
}));

for (const row of report) console.log(`${row.md5}  ${row.name}`);
report;
