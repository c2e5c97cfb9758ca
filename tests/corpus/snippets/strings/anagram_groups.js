const words = ['listen', 'silent', 'enlist', 'google', 'gooegl', 'cat', 'act', 'tac', 'dog'];
const groups = {};
for (const w of words) {
  const key = w.split('').sort().join('');
  (groups[key] ||= []).push(w);
}
Object.values(groups).filter(g => g.length > 1);
