// How URL, URLSearchParams and its iterators print: [[case id, text], ...] from the given inspect function.
(function (URL, URLSearchParams, inspect) {
  'use strict';
  const u = new URL('https://user:pw@example.com:8080/a/b?q=running+shoes&x=1#top');
  const long = new URLSearchParams();
  for (let i = 0; i < 8; i++) long.append('parameter' + i, 'value number ' + i);
  return [
    ['url', inspect(u)],
    ['url depth 0', inspect(u, { depth: 0 })],
    ['url nested too deep', inspect({ a: { b: u } }, { depth: 1 })],
    ['url in array', inspect([new URL('http://h/')])],
    ['params', inspect(new URLSearchParams('a=1&b=2'))],
    ['params empty', inspect(new URLSearchParams())],
    ['params long', inspect(long)],
    ['params nested too deep', inspect({ a: { b: new URLSearchParams('a=1') } }, { depth: 0 })],
    ['keys', inspect(new URLSearchParams('a=1&b=2').keys())],
    ['values', inspect(new URLSearchParams('a=1&b=2').values())],
    ['entries', inspect(new URLSearchParams('a=1&b=2').entries())],
    ['entries after next', (() => { const it = new URLSearchParams('a=1&b=2').entries(); it.next(); return inspect(it); })()],
    ['entries depth 0', inspect(new URLSearchParams('a=1&b=2').entries(), { depth: 0 })],
  ];
})
