const path = require('node:path');
const parsed = path.parse('/home/user/docs/report.final.pdf');
console.log(parsed);
const renamed = path.format({ ...parsed, base: undefined, ext: '.txt' });
renamed;
