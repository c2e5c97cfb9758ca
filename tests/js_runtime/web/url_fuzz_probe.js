// Generates `count` URL-like inputs from `seed` (a linear congruential generator, so Node and the isolate see the
// same ones), parses each against a base, applies a setter or a search-parameter edit, and returns the outcomes.
// Cases where Node 20 departs from the URL Standard are not generated: a relative input holding '#' against an
// opaque-path base, and URLSearchParams built from text mixing non-ASCII characters with '%'.
(function (URL, URLSearchParams, seed, count) {
  'use strict';
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
  const pick = (a) => a[Math.floor(rnd() * a.length)];
  const toks = ['http:', 'https:', 'file:', 'ws:', 'ftp:', 'foo:', 'blob:', 'data:', 'HTTP:', 'sc:', '/', '//', '\\',
    '///', '?', '#', '@', ':', '.', '..', '%2e', '%2E%2e', '%', '%41', '%zz', '%00', ' ', '\t', '\n', 'a', 'B', 'x',
    'example.com', 'EXAMPLE.COM', 'user', 'pa:ss', '[', ']', '[::1]', '[1:2::3]', '[::ffff:1.2.3.4]', '0x7f.1',
    '127.0.0.1', '1.2.3', '0300.0250.1.1', '4294967295', '4294967296', '09', '0x', '80', '8080', '65536', 'C:', 'c|',
    '|', '\u00e9', '\u00df', 'm\u00fcnchen', '\u3002', '\uff0e', 'xn--nxasmq6b', 'xn--', 'localhost', '{', '}', '`',
    '"', "'", '<', '>', '^', '~', '&', '=', '+', '\u0000', '\u007f', '\ud83d\ude00', '\ud800', ';', ',', '$', '!'];
  const gen = (n) => { let s = ''; const k = 1 + Math.floor(rnd() * n); for (let i = 0; i < k; i++) s += pick(toks); return s; };
  const bases = [undefined, 'http://example.org/foo/bar?q#f', 'file:///C:/a/b', 'sc://h/p', 'sc:opaque',
    'http://u:p@h:81/a/b/c', 'file://host/x/y'];
  const fields = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname',
    'search', 'hash'];
  const setters = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'];
  const describe = (u) => [...fields.map((f) => u[f]), [...u.searchParams]];
  const out = [];
  for (let t = 0; t < count; t++) {
    const s = gen(9), b = pick(bases), k = pick(setters), v = gen(6), edit = rnd();
    if (b && b.startsWith('sc:o') && /^[^#]+#/.test(s.replace(/^[\0- ]+/, ''))) continue;
    const id = JSON.stringify([s, b, k, v]);
    let r;
    try {
      const u = new URL(s, b);
      r = [describe(u)];
      try {
        if (edit < 0.8) u[k] = v;
        else if (edit < 0.9) u.searchParams.append(v, s);
        else u.searchParams.delete(v);
        r.push(describe(u));
      } catch (e) { r.push(e.message); }
    } catch (e) { r = e.message; }
    out.push([id, r]);
  }
  for (let t = 0; t < count / 10; t++) {
    const s = gen(6);
    if (/[^\0-\x7f]/.test(s) && s.includes('%')) continue;
    const p = new URLSearchParams(s);
    out.push([JSON.stringify(['params', s]), [p.toString(), [...p]]]);
  }
  return out;
})
