const fs = require('fs');
const report = ['a,1', 'b,2'].join('\n');
fs.writeFileSync('report.csv', report);
'written';
