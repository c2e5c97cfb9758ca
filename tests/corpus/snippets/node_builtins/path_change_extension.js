const path = require('path');
const changeExt = (file, ext) => path.join(path.dirname(file), path.basename(file, path.extname(file)) + ext);
const outputs = ['src/a.ts', 'src/deep/b.tsx', 'c.test.ts', 'noext'].map((f) => changeExt(f, '.js'));
console.log(outputs);
outputs;
