const url = require('url');
const domains = ['español.com', 'münchen.de', 'example.com'];
const ascii = domains.map((d) => url.domainToASCII(d));
console.log(ascii);
ascii.map((a) => url.domainToUnicode(a));
