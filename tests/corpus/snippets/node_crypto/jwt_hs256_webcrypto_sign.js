const enc = new TextEncoder();

function b64url(bytes) {
  let bin = '';
  for (const b of new Uint8Array(bytes)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function signHS256(payload, secret) {
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = b64url(enc.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))) + '.' + b64url(enc.encode(JSON.stringify(payload)));
  const sig = await crypto.subtle.sign('HMAC', key, enc.encode(data));
  return data + '.' + b64url(sig);
}

const jwt = await signHS256({ sub: '1234567890', name: 'John Doe', iat: 1516239022 }, 'your-256-bit-secret');
jwt;
