const util = require('util');
const a = { id: 1, tags: new Set(['x', 'y']), meta: new Map([['k', [1, 2]]]) };
const b = { id: 1, tags: new Set(['y', 'x']), meta: new Map([['k', [1, 2]]]) };
const c = { id: '1', tags: new Set(['x', 'y']), meta: new Map([['k', [1, 2]]]) };
console.log(util.isDeepStrictEqual(a, b), util.isDeepStrictEqual(a, c));
[util.isDeepStrictEqual([NaN], [NaN]), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual(new Date(1), new Date(1))];
