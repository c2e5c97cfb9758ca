const url = require('url');
const { pathname, query } = url.parse('/api/items?limit=20&sort=price&sort=name', true);
console.log(pathname, query);
({ pathname, limit: Number(query.limit), sort: query.sort });
