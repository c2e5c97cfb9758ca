const fs = require('fs');
const csv = fs.readFileSync('./sales.csv', 'utf8');
const rows = csv.trim().split('\n').slice(1).map(l => l.split(','));
rows.reduce((s, r) => s + Number(r[2]), 0);
