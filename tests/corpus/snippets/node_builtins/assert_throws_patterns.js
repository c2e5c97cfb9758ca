const assert = require('assert');
const parse = (s) => { if (!s) throw new TypeError('empty input'); return JSON.parse(s); };
assert.throws(() => parse(''), TypeError);
assert.throws(() => parse(''), /empty/);
assert.throws(() => parse(''), { name: 'TypeError', message: 'empty input' });
assert.throws(() => parse('{bad'), SyntaxError);
assert.doesNotThrow(() => parse('{}'));
console.log('throws checks passed');
true;
