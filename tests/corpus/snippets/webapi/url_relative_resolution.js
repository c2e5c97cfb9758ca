const base = 'https://example.com/docs/guide/intro.html?x=1#top';
const refs = ['../api/index.html', './setup', '/about', '?page=2', '#faq', '//cdn.example.net/lib.js', 'https://other.org/'];
refs.map(r => new URL(r, base).href);
