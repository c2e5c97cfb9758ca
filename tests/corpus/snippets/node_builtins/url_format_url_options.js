const url = require('url');
const u = new URL('https://user:secret@example.com:8443/path?token=abc#frag');
console.log(url.format(u));
console.log(url.format(u, { auth: false, search: false, fragment: false }));
url.format(u, { auth: false });
