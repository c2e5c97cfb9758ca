const strings = ['hello', 'naïve', '日本語', '🎉🎉', 'a\u0000b'];
const enc = new TextEncoder();
Object.fromEntries(strings.map(s => [s, enc.encode(s).byteLength]));
