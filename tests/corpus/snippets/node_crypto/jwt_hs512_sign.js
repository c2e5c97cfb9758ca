const { createHmac } = require('node:crypto');

const encode = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
const header = encode({ alg: 'HS512', typ: 'JWT' });
const payload = encode({ sub: 'user-42', role: 'admin', exp: 1893456000 });
const signature = createHmac('sha512', 'a-very-long-secret-for-hs512-signing-0123456789').update(`${header}.${payload}`).digest('base64url');
const jwt = [header, payload, signature].join('.');
console.log(signature.length);
jwt;
