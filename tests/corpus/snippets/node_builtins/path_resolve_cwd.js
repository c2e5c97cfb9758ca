const path = require('path');
console.log(path.resolve('/srv', 'app', '../data', 'file.json'));
console.log(path.resolve('/tmp/', '/etc', 'hosts'));
[path.sep, path.delimiter, path.posix === path];
