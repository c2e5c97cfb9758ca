const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const [headerB64, payloadB64] = token.split('.');
const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const header = decode(headerB64);
const payload = decode(payloadB64);
console.log(header);
console.log(payload);
({ alg: header.alg, sub: payload.sub, issuedAt: new Date(payload.iat * 1000).toISOString() });
