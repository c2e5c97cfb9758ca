const encoder = new TextEncoder();
const bytes = encoder.encode('héllo wörld €');
console.log(bytes);
console.log(`chars: ${'héllo wörld €'.length}, bytes: ${bytes.length}`);
Array.from(bytes.slice(0, 4), b => b.toString(16).padStart(2, '0')).join(' ');
