const chunk = require('lodash/chunk');
const fp = require('lodash/fp');
console.log(chunk(['a', 'b', 'c'], 2), fp.map((x) => x * 2)([1, 2, 3]));
