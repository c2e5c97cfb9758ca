const enc = new TextEncoder();
const target = new Uint8Array(8);
const r = enc.encodeInto('añb€x', target);
const dec = new TextDecoder();
const chunks = [new Uint8Array([0xe2, 0x82]), new Uint8Array([0xac, 0x21])];
const text = chunks.map(c => dec.decode(c, { stream: true })).join('') + dec.decode();
({ read: r.read, written: r.written, text });
