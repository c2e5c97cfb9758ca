const bytes = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
crypto.subtle.digest('SHA-256', bytes).then(buf => {
  const hex = Array.from(new Uint8Array(buf), b => b.toString(16).padStart(2, '0')).join('');
  console.log(hex);
  return hex.length;
});
