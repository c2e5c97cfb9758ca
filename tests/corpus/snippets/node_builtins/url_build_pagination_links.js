const url = require('url');
const current = url.parse('https://api.example.com/items?page=3&per_page=25', true);
const linkFor = (page) => url.format({ ...current, search: undefined, query: { ...current.query, page } });
const links = { prev: linkFor(2), next: linkFor(4), first: linkFor(1) };
console.log(links);
links.next;
