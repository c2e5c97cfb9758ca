const qs = require('querystring');
const cookie = 'session=abc123; theme=dark; lang=en-US';
const parsed = qs.parse(cookie, '; ', '=');
console.log(parsed);
qs.stringify(parsed, '; ', '=');
