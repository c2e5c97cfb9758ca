const csv = 'id,name,price\n1,Apple,0.5\n2,Bread,2.25\n3,Cheese,7\n';
const buf = Buffer.from(csv);
const lines = buf.toString().trim().split('\n');
const rows = lines.slice(1).map((l) => l.split(','));
const total = rows.reduce((s, r) => s + Number(r[2]), 0);
console.log(`${buf.length} bytes, ${rows.length} rows, total ${total}`);
({ bytes: buf.length, total });
