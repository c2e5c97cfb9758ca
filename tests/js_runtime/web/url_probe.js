// Runs the URL test corpus against a URL and URLSearchParams pair and returns [[case id, outcome], ...].
// The same text runs in Node 20 (to record or compare) and in a mini-racer isolate with url.js.
(function (URL, URLSearchParams) {
  'use strict';
  const out = [];
  const fields = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname',
    'search', 'hash'];
  const err = (e) => [e.constructor.name, e.message, e.code, e.input, e.base, String(e), e.stack.split('\n')[0],
    Object.keys(e)];
  // The URL's fields in the order of `fields`, then its search parameters.
  const describe = (u) => [...fields.map((f) => u[f]), [...u.searchParams]];
  const attempt = (id, f) => {
    let r;
    try { r = f(); } catch (e) { r = { error: err(e) }; }
    out.push([id, r]);
  };

  const absolute = [
    'https://example.com', 'https://EXAMPLE.com/A/b?C=d#E', 'http://example.com:80/', 'https://example.com:443/x',
    'http://example.com:8080/x', 'http://example.com:0/', 'http://example.com:65535/', 'http://example.com:65536/',
    'http://example.com:/', 'http://example.com:0080/', 'http://example.com:8a/', 'ws://h:80/', 'wss://h:443/',
    'ftp://h:21/', 'ftp://h:22/', 'http://user:pass@example.com/', 'http://user@example.com/',
    'http://:pass@example.com/', 'http://@example.com/', 'http://user:@example.com/', 'http://a@b@c/',
    'http://us er:pa:ss@h/', 'http://%40:%3A@h/', 'http://user:p@ss@h/', 'http://\u00fcser:p\u00e4ss@h/',
    'http://h/p a t h', 'http://h/%7Efoo', 'http://h/{}|\\^`', 'http://h/"<>', 'http://h/\u00e9?\u00e9#\u00e9',
    'http://h/?q="<>`\'', 'sc://h/?q=\'', 'http://h/#"<>`\' {}', 'http://h/%zz%', 'http://h/\ud83d\ude00',
    'http://h/\ud800x', 'http://h/a/./b/../c', 'http://h/a/%2e/b/%2E%2e/c', 'http://h/a/..', 'http://h/a/.',
    'http://h/../../x', 'http://h/a/.%2e/', 'http://h/a//b', 'http://h\\a\\b', 'http:\\\\h\\a', 'http:h/a',
    'http:/h/a', 'http:///h/a', 'HTTP://H/', 'hTtPs://x/', '  http://h/  ', '\u0000http://h/\u001f',
    'ht\ttp://h/p\na\rth', 'http://h/?a=1&b=2&a=3', 'http://h/?', 'http://h/#', 'http://h/?#', 'http://h?x',
    'http://h#x', 'http://192.168.0.1/', 'http://0x7f.0.0.1/', 'http://0x7F000001/', 'http://2130706433/',
    'http://017700000001/', 'http://127.1/', 'http://127.0.1/', 'http://1.2.3.4./', 'http://0/', 'http://0x/',
    'http://00/', 'http://1.2.3.256/', 'http://256.0.0.1/', 'http://4294967295/', 'http://4294967296/',
    'http://1.2.3.4.5/', 'http://1..2/', 'http://09/', 'http://0x1g/', 'http://1.2.3.09/', 'http://a.1/',
    'http://1.a/', 'http://1.2.3.0x/', 'http://0xffffffff/', 'http://0x100000000/', 'http://[::1]/',
    'http://[::]/', 'http://[1:2:3:4:5:6:7:8]/', 'http://[1:0:0:0:0:0:0:8]/', 'http://[1:0:0:2:0:0:0:3]/',
    'http://[0:0:1:0:0:1:0:0]/', 'http://[FEDC:BA98:7654:3210:FEDC:BA98:7654:3210]:80/',
    'http://[::ffff:192.168.1.1]/', 'http://[::1.2.3.4]/', 'http://[1::2:3]/', 'http://[::1:2:3:4:5:6:7]/',
    'http://[1:2:3:4:5:6:7::]/', 'http://[1:2:3:4:5:6:7:8:9]/', 'http://[1::2::3]/', 'http://[:1]/',
    'http://[1:]/', 'http://[12345::]/', 'http://[::1.2.3]/', 'http://[::1.2.3.4.5]/', 'http://[::01.2.3.4]/',
    'http://[::256.2.3.4]/', 'http://[1:2:3:4:5:6:1.2.3.4]/', 'http://[1:2:3:4:5:6:7:1.2.3.4]/', 'http://[g::]/',
    'http://[::1]x/', 'http://[::1/', 'http://::1]/', 'sc://[::1]/', 'sc://[::1/', 'http://m\u00fcnchen.de/',
    'http://M\u00dcNCHEN.DE/', 'http://xn--mnchen-3ya.de/', 'http://XN--MNCHEN-3YA.de/', 'http://\u4f8b\u3048.jp/',
    'http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/', 'http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.com/',
    'http://example\u3002com/', 'http://example\uff0ecom/', 'http://example\uff61com/', 'http://fa\u00df.de/',
    'http://\u03b5\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac.gr/', 'http://\u0395\u039b\u039b\u0397\u039d\u0399\u039a\u0391.gr/',
    'http://\u2603.net/', 'http://\ud83d\udca9.la/', 'http://a\u00adb/', 'http://a\u200bb/', 'http://a\u200db/',
    'http://\u0301a/', 'http://%C3%BC.de/', 'http://%ZZ/', 'http://%41.com/', 'http://a%2Eb/', 'http://%00/',
    'http://xn--/', 'http://xn--a/', 'http://xn--zca.de/', 'http://\u05d0\u05d1\u05d2.com/',
    'http://\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631/', 'http://a b/', 'http://a<b/', 'http://a^b/',
    'http://a|b/', 'http://a%b/', 'http://a\u007fb/', 'sc://a b/', 'sc://a%b/', 'sc://a^b/', 'sc://\u00fc/',
    'sc://%C3%BC/', 'sc://H/', 'sc://h:1/', 'sc://h:x/', 'sc://:1/', 'sc://@h/', 'sc://u@/', 'sc://', 'sc:///',
    'sc:////', 'sc://h', 'sc:/a/b', 'sc:a/b', 'sc:', 'sc:?q#f', 'sc:/.//p', 'sc:/..//p', 'sc://h/a/../b',
    'mailto:User@Example.com', 'data:text/plain,hello world', 'data:,a b  ', 'javascript:alert(1)',
    'javascript:void(0) #x', 'urn:isbn:0451450523', 'tel:+1-555-0100', 'blob:https://a.b/uuid',
    'blob:http://a.b:8080/x', 'blob:file:///x', 'blob:sc://h/x', 'blob:nothing', 'a1+-.:x', '1a:x', '+a:x',
    'file:///C:/Windows/System32', 'file:///c|/x', 'file://C:/x', 'file:C:/x', 'file:/C|/x', 'file:c:\\x\\y',
    'file:///C:/../../x', 'file:///C:/a/../..', 'file://localhost/etc/hosts', 'file://LOCALHOST/x',
    'file://server/share/f.txt', 'file://h:80/x', 'file://u@h/x', 'file:///x?q#f', 'file:x', 'file:/x',
    'file:', 'file://', 'file:///', 'file:////x', 'file:\\\\h\\x', 'file://[1::1]/x', 'file://1.2.3/x',
    'file://xn--mnchen-3ya/x', 'file://%41/x', 'FILE:///X', 'nope', '', ' ', '//h/x', '/x', '?q', '#f',
    'http://', 'http:///', 'http://?', 'http://#', 'http://:80/', 'http://user@/', 'http:', 'https:',
    'http://h:80:80/', 'http://h/\u0000', 'non-spec:/.//', 'non-spec:/..//', 'web+demo:/.//not-a-host/',
    'https://example.com/search?q=running+shoes&size=10', 'https://api.example.com/v1/users?id=42&sort=-name',
    'https://example.com/path/to/page.html?utm_source=a&utm_medium=b#section-2',
    'https://user:secret@example.com:8443/a/b?c=d#e', 'https://example.com/%E2%9C%93?x=%E2%9C%93',
  ];
  for (const s of absolute) attempt('parse ' + JSON.stringify(s), () => describe(new URL(s)));

  const rfcBase = 'http://a/b/c/d;p?q';
  const rfc = ['g:h', 'g', './g', 'g/', '/g', '//g', '?y', 'g?y', '#s', 'g#s', 'g?y#s', ';x', 'g;x', 'g;x?y#s', '',
    '.', './', '..', '../', '../g', '../..', '../../', '../../g', '../../../g', '../../../../g', '/./g', '/../g',
    'g.', '.g', 'g..', '..g', './../g', './g/.', 'g/./h', 'g/../h', 'g;x=1/./y', 'g;x=1/../y', 'g?y/./x',
    'g?y/../x', 'g#s/./x', 'g#s/../x', 'http:g', 'http:/g', 'HTTP:g', 'https:g', '\\g', '\\\\g', '/\\g', 'g\\h',
    ' g ', 'g\th', '%2e%2e/g', '.%2E/g', '//user@host', '//[::1]:81', '?', '#', '?#', 'g?a+b c'];
  for (const r of rfc) attempt('resolve ' + JSON.stringify([r, rfcBase]), () => describe(new URL(r, rfcBase)));
  const bases = ['http://h/a/b?q#f', 'file:///C:/dir/file', 'file://host/dir/file', 'file:///dir/file',
    'sc://h/a/b', 'sc:/a/b', 'sc:opaque', 'mailto:x@y', 'data:text/plain,hi', 'https://u:p@h:8080/a/b'];
  const refs = ['x', '/x', '//x/y', '../x', '?n', '#n', '', 'C:/y', '/C:/y', 'c|', '\\x', '//', 'https:x', 'sc:x',
    'file:x', '..', '/..', 'D:', '//localhost/z', 'x/../../../y'];
  for (const b of bases) {
    for (const r of refs) attempt('resolve ' + JSON.stringify([r, b]), () => describe(new URL(r, b)));
  }
  attempt('resolve invalid base', () => describe(new URL('/x', 'nope')));
  attempt('resolve absolute ignores base', () => describe(new URL('https://a/', 'nope:')));

  const setterBases = ['https://u:p@example.com:8080/a/b?c=d#e', 'http://h/', 'sc://h/p?q#f', 'sc:opaque ?q',
    'file:///C:/x', 'file://host/x', 'mailto:a@b'];
  const setterValues = {
    href: ['https://other/', 'nope', '/relative', ' http://x/ '],
    protocol: ['http', 'HTTPS:', 'ws:', 'file', 'sc', 'foo', '1x', 'ftp:ignored', 'a\u00e9'],
    username: ['me', 'm e@:', '', '\u00fc'],
    password: ['s3cr:t', '', '@/'],
    host: ['other.org', 'other.org:81', 'other:443', 'h:80x', '[::1]:9', '', 'a b', 'M\u00dcNCHEN.de:1', 'x/y', 'x?y', 'x#y', 'localhost'],
    hostname: ['other.org', 'other.org:81', '', '[::1]', '1.2.3.4', '0x7f.1', 'h\\i'],
    port: ['81', '443', '80', '', 'x', '8080x', '65536', ' 8', '\t9', '-1', '+1', '0', '07'],
    pathname: ['/n/p', 'n p', '', '../x', '?#', '\u00e9', '//x', 'C|/y'],
    search: ['?a=b', 'a=b', '', '?', 'x y#z', '\u00e9=1', 'q=running+shoes'],
    hash: ['#x', 'x', '', '#', 'a b`', '\u00e9'],
  };
  for (const b of setterBases) {
    for (const [k, vals] of Object.entries(setterValues)) {
      for (const v of vals) {
        attempt('set ' + JSON.stringify([b, k, v]), () => { const u = new URL(b); u[k] = v; return describe(u); });
      }
    }
  }

  const params = (p) => [p.toString(), [...p], p.size];
  const inits = ['q=running+shoes', '?a=1&b=2', 'a=1&&b=2&', '=x&y=&z', 'a=%zz&b=%41%42&c=%e2%9c%93&d=%C3',
    'a+b=c+d&%2B=%20', 'a=1=2', '\u00e9=\u00e8', '??x', '', '&', 'a', 'k=%F0%9F%98%80&k=%FF'];
  for (const i of inits) attempt('params ' + JSON.stringify(i), () => params(new URLSearchParams(i)));
  attempt('params record', () => params(new URLSearchParams({ a: 1, b: 'x y', c: null, 'd e': undefined })));
  attempt('params pairs', () => params(new URLSearchParams([['a', '1'], ['a', '2'], ['b', '=&']])));
  attempt('params map', () => params(new URLSearchParams(new Map([['k', 'v'], ['k2', 'v2']]))));
  attempt('params copy', () => params(new URLSearchParams(new URLSearchParams('x=1&y=2'))));
  attempt('params undefined', () => params(new URLSearchParams(undefined)));
  attempt('params null', () => params(new URLSearchParams(null)));
  attempt('params number', () => params(new URLSearchParams(12)));
  attempt('params bad pair', () => params(new URLSearchParams([['a']])));
  attempt('params bad pair element', () => params(new URLSearchParams([1])));
  attempt('params non-callable iterator', () => params(new URLSearchParams({ [Symbol.iterator]: 1 })));
  attempt('params symbol key', () => params(new URLSearchParams({ [Symbol('s')]: 1 })));
  attempt('params methods', () => {
    const p = new URLSearchParams('b=2&a=1&b=3&c');
    const r = [p.get('b'), p.get('zz'), p.getAll('b'), p.has('b'), p.has('b', '3'), p.has('b', '9'), p.has('zz')];
    p.append('d', 'x y'); r.push(p.toString());
    p.set('b', 'new'); r.push(p.toString());
    p.delete('a'); r.push(p.toString());
    p.append('e', '1'); p.append('e', '2'); p.delete('e', '1'); r.push(p.toString());
    p.sort(); r.push(p.toString(), p.size);
    const seen = [];
    p.forEach(function (v, k, o) { seen.push([k, v, o === p, this.t]); }, { t: 1 });
    r.push(seen, [...p.keys()], [...p.values()], [...p.entries()], [...p]);
    return r;
  });
  attempt('params sort is stable by code units', () => {
    const p = new URLSearchParams('z=1&\ud83d\ude00=2&\ufb03=3&a=4&z=5&A=6');
    p.sort();
    return [...p];
  });
  attempt('params special characters serialise', () => {
    const p = new URLSearchParams();
    p.append(' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', '\u00e9\ud83d\ude00\u0000\n');
    return p.toString();
  });
  attempt('params iterator is live', () => {
    const p = new URLSearchParams('a=1&b=2&c=3'), seen = [];
    for (const [k] of p) { seen.push(k); if (k === 'a') p.delete('b'); }
    return seen;
  });
  attempt('params missing args', () => { const p = new URLSearchParams(); return [p.append('a'), 1]; });
  attempt('params missing name', () => new URLSearchParams().get());
  attempt('params forEach non-function', () => new URLSearchParams('a=1').forEach('abc'));
  attempt('params forEach object', () => new URLSearchParams('a=1').forEach({}));
  attempt('params wrong receiver', () => URLSearchParams.prototype.get.call({}, 'a'));
  attempt('params iterator prototype', () => {
    const proto = Object.getPrototypeOf(new URLSearchParams('a=1').keys());
    return [Object.getOwnPropertyNames(proto), Object.keys(proto),
      Object.getPrototypeOf(proto) === Object.getPrototypeOf(Object.getPrototypeOf([].keys()))];
  });
  attempt('params iterator wrong receiver', () => Object.getPrototypeOf(new URLSearchParams().keys()).next.call({}));
  attempt('params from a set pair and array values', () => [String(new URLSearchParams([new Set(['a', 'b'])])),
    String(new URLSearchParams({ a: [1, 2] }))]);
  attempt('params iterator toString tag', () => Object.prototype.toString.call(new URLSearchParams().keys()));

  const linked = [
    ['append', (u) => u.searchParams.append('k', 'v w')],
    ['delete last', (u) => u.searchParams.delete('c')],
    ['set', (u) => u.searchParams.set('c', '\u00e9')],
    ['sort', (u) => u.searchParams.sort()],
    ['search replaces params', (u) => { u.searchParams; u.search = '?z=9'; }],
    ['href replaces params', (u) => { u.searchParams; u.href = 'http://n/?y=8'; }],
    ['search cleared', (u) => { u.searchParams; u.search = ''; }],
  ];
  for (const b of ['https://h/p?c=d#e', 'sc:opaque ?c=d', 'sc:opaque ?c=d#f', 'http://h/?c=%20+x']) {
    for (const [name, f] of linked) {
      attempt('linked ' + JSON.stringify([b, name]), () => { const u = new URL(b); f(u); return describe(u); });
    }
  }
  attempt('linked same object', () => { const u = new URL('http://h/?a=1'); return u.searchParams === u.searchParams; });

  attempt('canParse', () => [URL.canParse('http://x'), URL.canParse('nope'), URL.canParse('/a', 'http://h'),
    URL.canParse('/a', 'nope'), URL.canParse('/a')]);
  attempt('parse', () => [URL.parse('nope'), URL.parse('/a', 'http://h/b').href]);
  attempt('canParse no args', () => URL.canParse());
  attempt('no args', () => new URL());
  attempt('toJSON and toString', () => {
    const u = new URL('http://h/a b');
    return [u.toJSON(), u.toString(), String(u), JSON.stringify({ u }), `${u}`];
  });
  attempt('toStringTag', () => [Object.prototype.toString.call(new URL('http://h')),
    Object.prototype.toString.call(new URLSearchParams())]);
  attempt('wrong receiver', () => Object.getOwnPropertyDescriptor(URL.prototype, 'href').get.call({}));
  attempt('wrong receiver of toString', () => URL.prototype.toString.call({}));
  attempt('function lengths', () => [URL.length, URLSearchParams.length, URL.canParse.length,
    ...['append', 'delete', 'get', 'getAll', 'has', 'set', 'forEach'].map((k) => URLSearchParams.prototype[k].length)]);
  attempt('invalid href setter', () => { new URL('http://h').href = 'nope'; });
  attempt('invalid with base', () => new URL('http://[', 'http://h/'));
  attempt('enumerable members', () => [Object.keys(URL.prototype), Object.keys(URLSearchParams.prototype), Object.keys(URL)]);
  attempt('symbol input', () => new URL(Symbol('s')));
  attempt('object input', () => new URL({ toString() { return 'http://obj/'; } }).href);
  return out;
})
