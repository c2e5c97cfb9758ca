const util = require('util');
const inventory = new Map([['apples', { count: 5, tags: new Set(['fruit', 'red']) }], ['bread', { count: 1, tags: new Set() }]]);
console.log(util.inspect(inventory, { depth: 4 }));
console.log(util.inspect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { maxArrayLength: 4 }));
inventory.size;
