const url = require('url');
const base = 'https://example.com/docs/guide/intro.html';
const links = ['setup.html', '../api/', '/about', '//cdn.example.com/lib.js', '#section', '?page=2', 'https://other.org/'];
const resolved = links.map((l) => url.resolve(base, l));
console.log(resolved);
resolved;
