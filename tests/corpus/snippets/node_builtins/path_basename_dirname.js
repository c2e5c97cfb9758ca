const path = require('path');
const p = '/usr/local/lib/node_modules/npm/bin/npm-cli.js';
const info = { base: path.basename(p), name: path.basename(p, '.js'), dir: path.dirname(p), ext: path.extname(p) };
console.log(info);
path.dirname(path.dirname(p));
