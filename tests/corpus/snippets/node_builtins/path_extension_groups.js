const path = require('path');
const files = ['index.html', 'app.js', 'style.css', 'lib/util.js', 'README', '.env', 'archive.tar.gz'];
const byExt = {};
for (const file of files) {
  const ext = path.extname(file) || '(none)';
  (byExt[ext] ||= []).push(path.basename(file, path.extname(file)));
}
console.log(byExt);
Object.keys(byExt).sort();
