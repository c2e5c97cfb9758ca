# ruff: noqa: E501 - each case is one line of JavaScript, as it is recorded in the fixture
"""Cases for string_decoder and querystring (see node_cases.py).

`decode(encoding, pieces, last)` writes each piece (an array of bytes) to a StringDecoder and returns what every
write() and the final end() gave.
"""

from __future__ import annotations

import json

STRING_DECODER_PRELUDE = (
    "globalThis.StringDecoder = require('string_decoder').StringDecoder;"
    " globalThis.decode = (encoding, pieces, last) => { const d = new StringDecoder(encoding);"
    " const out = pieces.map((p) => d.write(Buffer.from(p)));"
    " out.push(last === undefined ? d.end() : d.end(Buffer.from(last))); return out; };"
)

_DECODED = [
    ("utf8", [[0xE2, 0x82], [0xAC]]),
    ("utf8", [[0xE2], [0x41]]),
    ("utf8", [[0xE2, 0x82]]),
    ("utf8", [[0xF0, 0x9F], [0x98], [0x80, 0x41]]),
    ("utf8", [[0xFF, 0x41, 0xC3]]),
    ("utf8", [[0xED, 0xA0], [0x80]]),
    ("utf8", [[0xED, 0xA0]]),
    ("utf8", [[0xC0]]),
    ("utf8", [[0x41, 0x80, 0x80]]),
    ("utf8", [[0xE2], [0x82, 0x41]]),
    ("utf8", [[0xE2], [0x41, 0xE2]]),
    ("utf8", [[0xF8, 0x80]]),
    ("utf8", [[0x80, 0x80, 0x80, 0x80]]),
    ("utf8", [[0xE2, 0x82], [0xE2, 0x82, 0xAC]]),
    ("utf8", [[0x68, 0x69], [], [0x21]]),
    ("utf8", [[0xC3], [0xA9, 0xC3], [0xA9]]),
    ("utf8", [[0xF0], [0x9F], [0x8E], [0x89]]),
    ("utf16le", [[0x61], [0x00, 0x62], [0x00]]),
    ("utf16le", [[0x3D, 0xD8], [0x00, 0xDE]]),
    ("utf16le", [[0x3D, 0xD8]]),
    ("utf16le", [[0x61]]),
    ("utf16le", [[0x3D, 0xD8, 0x61]]),
    ("utf16le", [[0x3D, 0xD8, 0x61], [0x00]]),
    ("utf16le", [[0x3D, 0xD8], [0x61, 0x00]]),
    ("ucs2", [[0x3D], [0xD8, 0x00], [0xDE]]),
    ("base64", [[1], [2, 3, 4], [5]]),
    ("base64", [[1, 2]]),
    ("base64", [[1, 2, 3]]),
    ("base64url", [[0xFB, 0xFF]]),
    ("hex", [[1, 2], [255]]),
    ("latin1", [[0xE9, 0x41]]),
    ("binary", [[0xFF]]),
    ("ascii", [[0xE9, 0x41]]),
]

STRING_DECODER = [
    *(f"() => decode({json.dumps(encoding)}, {json.dumps(pieces)})" for encoding, pieces in _DECODED),
    "() => decode('utf8', [[0xc3]], [0xa9])",
    "() => decode('base64', [[1]], [2, 3])",
    "() => new StringDecoder('bogus')",
    "() => [new StringDecoder().encoding, new StringDecoder('UCS-2').encoding, new StringDecoder('binary').encoding, new StringDecoder(null).encoding, new StringDecoder('UTF-8').encoding, new StringDecoder('base64url').encoding]",
    "() => new StringDecoder().write('already text')",
    "() => new StringDecoder().write(5)",
    "() => new StringDecoder().write(null)",
    "() => new StringDecoder().end('x')",
    "() => new StringDecoder().write(new Uint16Array([0x4141]))",
    "() => new StringDecoder().write(new DataView(new Uint8Array([104, 105]).buffer))",
    "() => { const d = new StringDecoder('utf8'); d.write(Buffer.from([0xe2])); return [d.lastNeed, d.lastTotal, d.lastChar]; }",
    "() => { const d = new StringDecoder('base64'); d.write(Buffer.from([1])); return [d.lastNeed, d.lastTotal, d.lastChar]; }",
    "() => { const d = new StringDecoder('utf16le'); d.write(Buffer.from([1])); return [d.lastNeed, d.lastTotal]; }",
    "() => { const d = new StringDecoder('hex'); return [d.lastNeed, d.lastTotal, d.lastChar]; }",
    "() => new StringDecoder().text(Buffer.from('abc'), 1)",
    "() => { const d = new StringDecoder('utf8'); return [d.write(Buffer.from([0xe2])), d.end(), d.write(Buffer.from('ok'))]; }",
    "() => Object.keys(new StringDecoder('hex'))",
    "() => { const d = new StringDecoder('utf8'); const bytes = Buffer.from('naïve café ☕ 😀'); let out = ''; for (const b of bytes) out += d.write(Buffer.from([b])); return out + d.end(); }",
    "() => { const d = new StringDecoder('utf8'); const bytes = Buffer.from('日本語テキスト'); return [d.write(bytes.subarray(0, 4)), d.write(bytes.subarray(4, 11)), d.end(bytes.subarray(11))]; }",
    "() => require('string_decoder').StringDecoder === require('node:string_decoder').StringDecoder",
]

QUERYSTRING_PRELUDE = (
    "globalThis.qs = require('querystring');"
    " globalThis.P = (...a) => { const o = qs.parse(...a); return [Object.getPrototypeOf(o) === null, o]; };"
)

_PARSED = [
    "'a=1&b=2'",
    "'a=1&a=2&a=3'",
    "'a'",
    "'=x'",
    "'&&a=1&&'",
    "'a=%zz'",
    "'a=%E2%82%AC&b=%e2%82'",
    "'a==b'",
    "'a+b=c+d'",
    "'a%20b=c%2Bd'",
    "'a:1; b:2', '; ', ':'",
    "'a=1&b=2&c=3', null, null, { maxKeys: 2 }",
    "'a=1&b=2', '&', '=', { maxKeys: 0 }",
    "'a=1&b=2', '&', '=', { maxKeys: -1 }",
    "''",
    "5",
    "'__proto__=1&constructor=2&hasOwnProperty=3'",
    "'a=1', '', ''",
    "'a=b', '&', '=', { decodeURIComponent: (s) => s.toUpperCase() }",
    "'a=%ZZ%41', '&', '=', { decodeURIComponent: (s) => { throw 1; } }",
    "'a[]=1&a[]=2'",
    "'a=1&&b'",
    "'a=\\u20ac'",
    "'%=%'",
    "'a=1&A=2'",
    "'='",
    "'&=&'",
    "'=&a'",
    "'a=1&a=2&b=3', '&', '=', { maxKeys: 2 }",
    "'&&a=1', '&', '=', { maxKeys: 1 }",
    "'a=1=2'",
    "'a=b;c=d', ';'",
    "'a=1&&b=2', '&&'",
    "'a=1', 5",
    "'a5b', '&', 5",
    "'+=+'",
    "'a=%2', '&', '=', { decodeURIComponent: (s) => '[' + s + ']' }",
    "'a+b=c', '&', '=', { decodeURIComponent: (s) => '[' + s + ']' }",
    "'%61=%62'",
    "'a=1&a='",
    "'a=%F0%9F%98%80'",
    "'a=%ED%A0%80'",
    "'name=John%20Doe&age=30&tags=js&tags=node'",
    "'q=caf%C3%A9+au+lait&page=2'",
    "'redirect=https%3A%2F%2Fexample.com%2Fpath%3Fx%3D1'",
    "'a=1&b'.repeat(3)",
]

QUERYSTRING = [
    *(f"() => P({args})" for args in _PARSED),
    "() => qs.stringify({ a: 1, b: 'x y', c: [1, 2], d: true, e: null, f: undefined, g: NaN, h: {}, i: 1n, j: Infinity, k: -0 })",
    "() => qs.stringify({ a: 'é€😀', 'k y': \"~!*()'\" })",
    "() => qs.stringify({ a: 1, b: 2 }, ';', ':')",
    "() => qs.stringify('x')",
    "() => qs.stringify(null)",
    "() => qs.stringify([1, 2])",
    "() => qs.stringify({ a: [] })",
    "() => qs.stringify({ a: 1 }, null, null, { encodeURIComponent: (s) => '<' + s + '>' })",
    "() => qs.stringify({ a: '\\ud800' })",
    "() => qs.stringify({ a: [[1, 2], {}] })",
    "() => qs.stringify(Object.create({ inherited: 1 }))",
    "() => qs.stringify({ a: 'x' }, '&', '=', { encodeURIComponent: 5 })",
    "() => qs.stringify({ a: 'x' }, '', '')",
    "() => qs.stringify({ '': 'v', b: '' })",
    "() => qs.stringify({ a: new String('s'), b: Object(2) })",
    "() => qs.stringify({ a: [null, undefined, 'x'] })",
    "() => qs.stringify({ a: 1 }, 5, 6)",
    "() => qs.stringify({ big: 1e21, small: 1e-7, neg: -5.5 })",
    "() => qs.stringify({ q: 'node.js & deno', page: 3, sort: ['name', '-date'] })",
    "() => qs.parse(qs.stringify({ x: ['1', '2'], y: 'a=b&c' }))",
    "() => qs.escape('a b&c=d/é')",
    "() => qs.escape(5)",
    "() => qs.escape({ toString() { return 'o k'; } })",
    "() => qs.escape('\\ud800')",
    "() => qs.unescape('a%20b+c')",
    "() => qs.unescape('%zz%41')",
    "() => qs.unescape('a+b', true)",
    "() => qs.unescape('%E2%82')",
    "() => qs.unescapeBuffer('a%20b+c', true)",
    "() => qs.unescapeBuffer('%4')",
    "() => qs.unescapeBuffer('%4z%41')",
    "() => qs.unescape(5)",
    "() => [qs.decode === qs.parse, qs.encode === qs.stringify, Object.keys(qs)]",
    "() => require('node:querystring') === qs",
]
