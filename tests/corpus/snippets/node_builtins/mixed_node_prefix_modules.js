const path = require('node:path');
const util = require('node:util');
const { Buffer: B } = require('node:buffer');
const { EventEmitter } = require('node:events');
console.log(path.join('a', 'b'), util.format('%d', 7), B.from('z').toString('hex'), typeof EventEmitter);
[require('node:path') === require('path'), require('node:util') === require('util')];
