const samples = ['hello', 'héllo', '日本語', '🙂🙃', ''];
const rows = samples.map((s) => ({ text: s, chars: s.length, bytes: Buffer.byteLength(s, 'utf8') }));
console.table(rows);
rows.map((r) => r.bytes);
