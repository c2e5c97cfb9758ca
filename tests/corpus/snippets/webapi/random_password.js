const charset = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
function password(length) {
  const out = [];
  const buf = new Uint32Array(length);
  crypto.getRandomValues(buf);
  for (const n of buf) out.push(charset[n % charset.length]);
  return out.join('');
}
password(20);
