const path = require('path');
const files = ['a.txt', 'b.md'].map(f => path.join('/tmp/reports', f));
files.map(f => path.extname(f));
