const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
try {
  await crypto.subtle.exportKey('raw', key);
} catch (e) {
  console.log(e.name, e.message);
}
key.extractable;
