const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

function fromB64url(s) {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function verifyJwt(token, secret) {
  const [h, p, s] = token.split('.');
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: { name: 'SHA-256' } },
    false,
    ['verify'],
  );
  const ok = await crypto.subtle.verify('HMAC', key, fromB64url(s), new TextEncoder().encode(`${h}.${p}`));
  return { ok, payload: ok ? JSON.parse(new TextDecoder().decode(fromB64url(p))) : null };
}

console.log(await verifyJwt(token, 'your-256-bit-secret'));
console.log(await verifyJwt(token, 'not-the-secret'));
