const qs = require('querystring');
const original = { redirect: 'https://example.com/path?x=1&y=2', lang: 'fr', emoji: '😀' };
const encoded = qs.stringify(original);
const decoded = qs.parse(encoded);
console.log(encoded);
JSON.stringify(decoded) === JSON.stringify(original);
