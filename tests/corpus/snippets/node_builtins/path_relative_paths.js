const path = require('path');
const from = '/project/src/components';
const targets = ['/project/src/utils/format.js', '/project/package.json', '/project/src/components/Button.jsx', '/other'];
const rel = targets.map((t) => path.relative(from, t));
console.log(rel);
rel;
