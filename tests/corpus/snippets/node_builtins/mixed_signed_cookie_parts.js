const qs = require('querystring');
const value = { user: 'ann', role: 'admin' };
const packed = Buffer.from(JSON.stringify(value)).toString('base64url');
const cookie = qs.stringify({ session: packed, path: '/' }, '; ');
console.log(cookie);
const parsed = qs.parse(cookie, '; ');
JSON.parse(Buffer.from(parsed.session, 'base64url').toString());
