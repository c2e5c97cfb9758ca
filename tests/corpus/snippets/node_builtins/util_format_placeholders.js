const util = require('util');
const msg = util.format('%s has %d items costing %f (%j) %%', 'cart', 3, 19.99, { currency: 'EUR' });
console.log(msg);
console.log(util.format('no args here', 'extra', 42));
msg;
