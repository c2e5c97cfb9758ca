const url = require('url');
const u = url.parse('http://example.com\\folder\\file.html?x=\\y');
console.log(u.pathname, u.search, u.href);
u.path;
