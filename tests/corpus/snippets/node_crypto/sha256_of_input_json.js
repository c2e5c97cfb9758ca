const { createHash } = require('crypto');

// Stable stringify: sort keys so the checksum does not depend on key order.
function stable(value) {
  if (Array.isArray(value)) return '[' + value.map(stable).join(',') + ']';
  if (value && typeof value === 'object') {
    return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + stable(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

const checksum = createHash('sha256').update(stable(input)).digest('hex');
console.log(stable(input));
checksum;
