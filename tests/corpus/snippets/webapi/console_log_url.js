const u = new URL('https://example.org:8080/a/b?x=1&y=two#h');
console.log(u);
console.log(u.searchParams);
String(u);
