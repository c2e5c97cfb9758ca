const util = require('util');
const deep = { level1: { level2: { level3: { level4: { value: 42 } } } }, list: [1, [2, [3, [4]]]] };
console.log(util.inspect(deep));
console.log(util.inspect(deep, { depth: null }));
util.inspect(deep, { depth: 0 });
