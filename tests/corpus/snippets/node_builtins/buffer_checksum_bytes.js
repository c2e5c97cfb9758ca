const payload = Buffer.from('The quick brown fox jumps over the lazy dog');
let sum = 0;
let xor = 0;
for (const byte of payload) {
  sum = (sum + byte) & 0xffff;
  xor ^= byte;
}
console.log(`sum=${sum} xor=${xor}`);
({ sum, xor, hex: sum.toString(16).padStart(4, '0') });
