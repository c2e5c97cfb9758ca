const assert = require('assert');
const tests = {
  'adds numbers': () => assert.strictEqual(0.1 * 3, 0.30000000000000004),
  'sorts words': () => assert.deepStrictEqual(['b', 'a'].sort(), ['a', 'b']),
  'fails on purpose': () => assert.deepStrictEqual({ n: [1, 2, 3] }, { n: [1, 2] }),
  'handles errors': () => assert.throws(() => null.x, TypeError),
};
const report = [];
for (const [name, fn] of Object.entries(tests)) {
  try { fn(); report.push(`ok - ${name}`); } catch (e) { report.push(`not ok - ${name}\n${e.message}`); }
}
console.log(report.join('\n'));
report.filter((r) => r.startsWith('ok')).length;
