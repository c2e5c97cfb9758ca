const crypto = require('crypto');

const token = input.token;
const [headerB64, payloadB64, sig] = token.split('.');
const header = JSON.parse(Buffer.from(headerB64, 'base64url').toString());
const payload = JSON.parse(Buffer.from(payloadB64, 'base64url').toString());
const recomputed = crypto.createHmac('sha256', input.secret).update(`${headerB64}.${payloadB64}`).digest('base64url');

console.log('alg', header.alg);
console.log('claims', payload);
({ signatureMatches: recomputed === sig });
