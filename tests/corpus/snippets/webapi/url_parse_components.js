const url = new URL('https://user:pa%20ss@shop.example.com:8443/products/search?q=running+shoes&size=10&color=blue#reviews');
({
  protocol: url.protocol,
  username: url.username,
  host: url.host,
  hostname: url.hostname,
  port: url.port,
  pathname: url.pathname,
  search: url.search,
  hash: url.hash,
  origin: url.origin,
  q: url.searchParams.get('q'),
});
