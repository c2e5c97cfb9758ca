const qs = require('querystring');
const many = Array.from({ length: 10 }, (_, i) => `k${i}=${i}`).join('&');
const limited = qs.parse(many, null, null, { maxKeys: 3 });
const all = qs.parse(many, '&', '=', { maxKeys: 0 });
console.log(Object.keys(limited), Object.keys(all).length);
Object.keys(limited).length;
