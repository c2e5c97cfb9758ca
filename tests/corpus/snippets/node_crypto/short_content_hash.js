const crypto = require('crypto');

const assets = ['app.js', 'styles.css', 'logo.svg'];
const contents = { 'app.js': 'console.log("hi")', 'styles.css': 'body{margin:0}', 'logo.svg': '<svg/>' };

const manifest = {};
for (const file of assets) {
  const hash = crypto.createHash('sha256').update(contents[file]).digest('hex').slice(0, 8);
  const [base, ext] = file.split('.');
  manifest[file] = `${base}.${hash}.${ext}`;
}
manifest;
