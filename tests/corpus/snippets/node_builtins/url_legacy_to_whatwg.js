const url = require('url');
const legacy = url.parse('http://EXAMPLE.com:80/a/../b?c=d');
const modern = new URL('http://EXAMPLE.com:80/a/../b?c=d');
console.log(legacy.host, legacy.pathname, legacy.href);
console.log(modern.host, modern.pathname, modern.href);
[legacy.port, modern.port];
