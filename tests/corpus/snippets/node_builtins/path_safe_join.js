const path = require('path');
const root = '/srv/uploads';
function safeJoin(userPath) {
  const target = path.resolve(root, userPath);
  if (!target.startsWith(root + path.sep)) throw new Error(`Refusing path outside root: ${userPath}`);
  return target;
}
const results = ['photo.png', 'a/b/c.txt', '../../etc/passwd', '/etc/shadow'].map((p) => {
  try { return safeJoin(p); } catch (e) { return e.message; }
});
console.log(results);
results;
