const { subtle } = require('crypto').webcrypto;
const enc = new TextEncoder();

const baseKey = await subtle.importKey('raw', enc.encode('my password'), 'PBKDF2', false, ['deriveBits']);
const bits = await subtle.deriveBits(
  { name: 'PBKDF2', salt: enc.encode('some salt'), iterations: 100000, hash: 'SHA-256' },
  baseKey,
  256,
);
Array.from(new Uint8Array(bits), (b) => b.toString(16).padStart(2, '0')).join('');
