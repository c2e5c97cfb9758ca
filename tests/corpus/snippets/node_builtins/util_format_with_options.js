const util = require('util');
const config = { server: { host: 'localhost', ports: [80, 443], tls: { enabled: true } } };
console.log(util.formatWithOptions({ depth: 1 }, 'config: %O', config));
console.log(util.formatWithOptions({ breakLength: Infinity }, '%O', config));
util.format('%o', [1, 2]);
