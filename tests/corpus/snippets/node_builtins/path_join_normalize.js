const path = require('path');
const parts = ['/var', 'www/', '../logs', './app', 'server.log'];
const joined = path.join(...parts);
console.log(joined);
console.log(path.normalize('/a//b/../c/./d/'));
[joined, path.isAbsolute(joined), path.dirname(joined)];
