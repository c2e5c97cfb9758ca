const bytes = new Uint8Array([0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd, 0x2c, 0x20, 0xf0, 0x9f, 0x8c, 0x8d]);
const text = new TextDecoder().decode(bytes);
const again = new TextEncoder().encode(text);
console.log(text);
again.every((b, i) => b === bytes[i]) && again.length === bytes.length;
