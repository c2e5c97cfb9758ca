const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-512' }, true, ['sign', 'verify']);
const jwk = await crypto.subtle.exportKey('jwk', key);
const raw = await crypto.subtle.exportKey('raw', key);
console.log(key.type, key.extractable, key.algorithm);
({ kty: jwk.kty, alg: jwk.alg, ops: jwk.key_ops, kLength: jwk.k.length, rawBytes: raw.byteLength });
