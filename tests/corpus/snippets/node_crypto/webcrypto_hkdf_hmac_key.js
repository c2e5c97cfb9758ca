const enc = new TextEncoder();
const ikm = await crypto.subtle.importKey('raw', enc.encode('input key material'), 'HKDF', false, ['deriveKey']);
const hmacKey = await crypto.subtle.deriveKey(
  { name: 'HKDF', hash: 'SHA-256', salt: enc.encode('salt'), info: enc.encode('session') },
  ikm,
  { name: 'HMAC', hash: 'SHA-256', length: 256 },
  true,
  ['sign', 'verify'],
);
const sig = await crypto.subtle.sign('HMAC', hmacKey, enc.encode('message'));
console.log(hmacKey.algorithm, hmacKey.usages);
btoa(String.fromCharCode(...new Uint8Array(sig)));
