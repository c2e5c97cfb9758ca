const { promisify } = require('util');
const sleep = promisify(setTimeout);
const start = Date.now();
const value = await sleep(20, 'done');
console.log(value);
value;
