const url = require('url');
const link = url.format({ protocol: 'https', hostname: 'shop.example.com', pathname: '/search', query: { q: 'red shoes', size: 42 } });
console.log(link);
console.log(url.format({ protocol: 'mailto', pathname: 'team@example.com' }));
link;
