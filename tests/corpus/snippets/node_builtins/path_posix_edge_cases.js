const path = require('path');
const cases = ['', '.', '..', '/', 'a/', '//x', 'file.', '.hidden'];
const table = cases.map((c) => [c, path.basename(c), path.dirname(c), path.extname(c)]);
console.log(table);
table.length;
