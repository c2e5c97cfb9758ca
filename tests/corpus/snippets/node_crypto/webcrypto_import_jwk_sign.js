const jwk = { kty: 'oct', k: 'c2VjcmV0LWtleS1mb3ItdGVzdHM', alg: 'HS256', ext: true };
const key = await crypto.subtle.importKey('jwk', jwk, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const signature = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode('payload'));
const hex = [...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, '0')).join('');
console.log(key.extractable);
hex;
