const bytes = crypto.getRandomValues(new Uint8Array(16));
const token = Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
console.log(token);
const words = crypto.getRandomValues(new Uint32Array(4));
[bytes.length, token.length, words.every(w => Number.isInteger(w) && w >= 0 && w < 2 ** 32)];
