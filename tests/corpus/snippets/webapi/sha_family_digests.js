const toHex = buf => [...new Uint8Array(buf)].map(b => b.toString(16).padStart(2, '0')).join('');
const data = new TextEncoder().encode('abc');
const out = {};
for (const algo of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
  const digest = await crypto.subtle.digest(algo, data);
  out[algo] = `${digest.byteLength} bytes ${toHex(digest).slice(0, 16)}…`;
}
out;
