const querystring = require('querystring');
const base = 'https://api.example.com/search';
const params = { term: 'café au lait', limit: 10, sort: ['-date', 'name'] };
const url = `${base}?${querystring.stringify(params)}`;
console.log(url);
url.length;
