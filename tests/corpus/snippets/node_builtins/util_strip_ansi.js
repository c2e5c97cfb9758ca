const util = require('util');
const colored = '\u001b[32m✔ passed\u001b[39m \u001b[1m12\u001b[22m tests';
const plain = util.stripVTControlCharacters(colored);
console.log(plain, plain.length, colored.length);
plain;
