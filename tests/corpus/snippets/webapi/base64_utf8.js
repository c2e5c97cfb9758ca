// btoa only takes Latin-1, so encode UTF-8 bytes first
function toBase64(str) {
  const bytes = new TextEncoder().encode(str);
  let binary = '';
  bytes.forEach(b => (binary += String.fromCharCode(b)));
  return btoa(binary);
}
function fromBase64(b64) {
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, c => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
const b64 = toBase64('✓ à la mode — 日本');
console.log(b64);
fromBase64(b64);
