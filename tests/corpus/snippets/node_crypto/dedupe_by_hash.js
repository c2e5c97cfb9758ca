const crypto = require('crypto');

const records = input;
const seen = new Map();
for (const record of records) {
  const key = crypto.createHash('sha1').update(JSON.stringify(record)).digest('hex');
  if (!seen.has(key)) seen.set(key, record);
}
console.log(`${records.length} records, ${seen.size} unique`);
[...seen.keys()].map((k) => k.slice(0, 10));
