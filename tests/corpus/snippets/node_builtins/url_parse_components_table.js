const url = require('url');
const inputs = ['http://localhost:3000/api', 'mailto:someone@example.com', 'ftp://files.example.org/pub/file.zip', '/relative/path?x=1'];
const table = inputs.map((s) => { const u = url.parse(s); return { protocol: u.protocol, host: u.host, path: u.path }; });
console.log(table);
table.length;
