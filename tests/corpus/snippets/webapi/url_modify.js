const u = new URL('https://example.com/list?page=1&sort=asc&utm_source=mail&utm_medium=email');
for (const key of [...u.searchParams.keys()]) {
  if (key.startsWith('utm_')) u.searchParams.delete(key);
}
u.searchParams.set('page', '3');
u.pathname = '/v2/list items';
u.hash = 'results';
u.toString();
