const { URL, URLSearchParams } = require('url');
const u = new URL('https://example.com/path/to/page?b=2&a=1#top');
const params = new URLSearchParams(u.search);
params.append('c', '3');
params.sort();
u.search = params.toString();
console.log(u.href);
[u.host, u.pathname, Object.fromEntries(params)];
