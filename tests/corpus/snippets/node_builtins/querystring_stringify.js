const qs = require('node:querystring');
const params = { q: 'node streams & buffers', page: 2, filters: ['new', 'popular'], debug: false, skip: undefined };
const query = qs.stringify(params);
console.log(query);
console.log(qs.stringify({ a: 1, b: 2 }, ';', ':'));
query;
