const crypto = require('crypto');

function bucket(key, buckets) {
  const hex = crypto.createHash('md5').update(String(key)).digest('hex');
  return parseInt(hex.slice(0, 8), 16) % buckets;
}

const users = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const assignment = Object.fromEntries(users.map((u) => [u, bucket(u, 4)]));
console.log(assignment);
Object.values(assignment).reduce((counts, b) => ((counts[b] = (counts[b] || 0) + 1), counts), {});
