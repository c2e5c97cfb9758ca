const qs = require('querystring');
const escaped = qs.escape('a b/c?d=é');
console.log(escaped, qs.unescape(escaped));
console.log(qs.unescape('bad%zz%41'), qs.unescape('plus+sign'));
[escaped, qs.unescape('%E2%82%AC')];
