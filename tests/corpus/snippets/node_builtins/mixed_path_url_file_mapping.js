const path = require('path');
const { pathToFileURL } = require('url');
const files = ['src/index.js', 'src/lib/math.js', 'README.md'];
const mapped = files.map((f) => ({ file: f, abs: path.resolve('/project', f), url: pathToFileURL(path.resolve('/project', f)).href }));
console.log(mapped);
mapped.map((m) => m.url);
