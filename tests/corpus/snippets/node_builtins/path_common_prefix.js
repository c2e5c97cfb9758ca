const path = require('path');
const files = ['/repo/src/a/b.js', '/repo/src/a/c/d.js', '/repo/src/a/e.js'];
const split = files.map((f) => path.dirname(f).split('/'));
const common = [];
for (let i = 0; split.every((s) => s[i] !== undefined && s[i] === split[0][i]); i++) common.push(split[0][i]);
const prefix = common.join('/') || '/';
console.log(prefix);
files.map((f) => path.relative(prefix, f));
