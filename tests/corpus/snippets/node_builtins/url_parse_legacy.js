const url = require('url');
const parsed = url.parse('https://user:pass@sub.example.com:8080/p/a/t/h?query=string#hash');
console.log(parsed);
[parsed.hostname, parsed.port, parsed.pathname, parsed.query];
