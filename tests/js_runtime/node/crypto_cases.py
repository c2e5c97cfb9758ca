"""Snippets of Node's crypto module, run both in Node 20 and in the sandbox's runtime, described the same way.

Each case is an expression for a function of no arguments (it may return a promise) that uses `C`, the crypto
module. `DESCRIBE` turns what it returns or throws into JSON: a Buffer or typed array becomes `{type, bytes}`, an
ArrayBuffer `{type: 'ArrayBuffer', bytes}`, an error `{error: [constructor name, name, code, message]}`. Random
outcomes are described by their shape (lengths, ranges, formats). The recorded Node outcomes live in
fixtures/crypto_node.json (written by record_crypto_fixtures.py).
"""

from __future__ import annotations

DESCRIBE = r"""
(async function describeAll(sources) {
  globalThis.C = require('crypto');
  const hex = (bytes) => Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
  const show = (value) => {
    if (value instanceof ArrayBuffer) return { type: 'ArrayBuffer', bytes: hex(new Uint8Array(value)) };
    if (ArrayBuffer.isView(value)) {
      return { type: value.constructor.name, bytes: hex(new Uint8Array(value.buffer, value.byteOffset,
        value.byteLength)) };
    }
    if (typeof value === 'string') {
      let escaped = '';
      for (const ch of value) {
        const code = ch.codePointAt(0);
        escaped += code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code < 0xe000) ?
          '\\u{' + code.toString(16) + '}' : ch;
      }
      return escaped;
    }
    if (typeof value === 'function') return { type: 'function', name: value.name };
    if (Array.isArray(value)) return value.map(show);
    if (value !== null && typeof value === 'object') {
      const out = {};
      for (const key of Object.keys(value)) out[key] = show(value[key]);
      return out;
    }
    return value === undefined ? { type: 'undefined' } : value;
  };
  const results = [];
  for (const source of sources) {
    try {
      results.push({ value: show(await (0, eval)(source)()) });
    } catch (error) {
      const code = error !== null && typeof error === 'object' && 'code' in error ? error.code : null;
      results.push({ error: [error.constructor.name, error.name, code, String(error.message)] });
    }
  }
  return JSON.stringify(results);
})
"""


def _fn(body: str) -> str:
    return "() => " + body


def _later(call: str) -> str:
    """A call whose last argument is a Node callback, as a promise of [error, value]."""
    return _fn(f"new Promise((resolve) => {call}((error, value) => resolve([error, value])))")


_TEXT = "'The quick brown fox jumps over the lazy dog'"

_HASH = (
    [
        _fn(f"C.createHash('{name}').update({_TEXT}).digest('hex')")
        for name in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256")
    ]
    + [
        _fn(f"C.createHash('{name}').update('abc').digest('hex')")
        for name in (
            "MD5",
            "RSA-MD5",
            "md5WithRSAEncryption",
            "ssl3-md5",
            "SHA1",
            "sha-1",
            "RSA-SHA1-2",
            "ssl3-sha1",
            "SHA-224",
            "sha2-224",
            "SHA256",
            "sha-256",
            "RSA-SHA256",
            "sha256WithRSAEncryption",
            "sha2-384",
            "RSA-SHA512",
            "SHA512-224",
            "sha-512/224",
            "RSA-SHA512/256",
            "sha512-256WithRSAEncryption",
            "2.16.840.1.101.3.4.2.1",
        )
    ]
    + [
        _fn("C.createHash('sha256').update('').digest('hex')"),
        _fn("C.createHash('md5').digest('hex')"),
        _fn("C.createHash('sha256').update('a').update('b').update('c').digest('hex')"),
        _fn("C.createHash('sha256').update('h\u00e9llo \u2713 \ud83d\ude00').digest('hex')"),
        _fn("C.createHash('sha256').update('lone \ud800 surrogate \udc00!').digest('hex')"),
        _fn("C.createHash('sha1').update('x'.repeat(1000)).digest('base64')"),
        _fn("C.createHash('sha256').update('abc').digest('base64url')"),
        _fn("C.createHash('sha256').update('abc').digest('BASE64')"),
        _fn("C.createHash('sha256').update('abc').digest('Hex')"),
        _fn("C.createHash('md5').update('abc').digest('latin1')"),
        _fn("C.createHash('md5').update('abc').digest('binary')"),
        _fn("C.createHash('md5').update('abc').digest('ascii')"),
        _fn("C.createHash('md5').update('abc').digest('ucs2')"),
        _fn("C.createHash('md5').update('abc').digest('utf16le')"),
        _fn("C.createHash('md5').update('abc').digest()"),
        _fn("C.createHash('md5').update('abc').digest('buffer')"),
        _fn("C.createHash('md5').update('abc').digest('nope')"),
        _fn("C.createHash('md5').update('abc').digest(5)"),
        _fn("C.createHash('md5').update('616263', 'hex').digest('hex')"),
        _fn("C.createHash('md5').update('616263', 'HEX').digest('hex')"),
        _fn("C.createHash('md5').update('6162zz63', 'hex').digest('hex')"),
        _fn("C.createHash('md5').update('abc', 'hex').digest('hex')"),
        _fn("C.createHash('md5').update('ABC', 'Hex')"),
        _fn("C.createHash('md5').update('YWJj', 'base64').digest('hex')"),
        _fn("C.createHash('md5').update('YW=Jj', 'base64').digest('hex')"),
        _fn("C.createHash('md5').update('YW Jj\\n', 'base64').digest('hex')"),
        _fn("C.createHash('md5').update('-_-_', 'base64').digest('hex')"),
        _fn("C.createHash('md5').update('+/+/', 'base64url').digest('hex')"),
        _fn("C.createHash('md5').update('YWJ', 'base64url').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'latin1').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'binary').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'ascii').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'utf16le').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'UCS-2').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'utf-8').digest('hex')"),
        _fn("C.createHash('md5').update('\u00e9\u20ac', 'nope').digest('hex')"),
        _fn("C.createHash('md5').update('x', null).digest('hex')"),
        _fn("C.createHash('sha1').update(new Uint8Array([1, 2, 3])).digest('hex')"),
        _fn("C.createHash('sha1').update(new Uint8Array([0, 1, 2, 3, 4]).subarray(1, 4)).digest('hex')"),
        _fn("C.createHash('sha1').update(new Uint16Array([1, 2])).digest('hex')"),
        _fn("C.createHash('sha1').update(new Float64Array([1.5])).digest('hex')"),
        _fn("C.createHash('sha1').update(new DataView(new Uint8Array([9, 1, 2]).buffer, 1)).digest('hex')"),
        _fn("C.createHash('sha1').update(new Uint8Array([1, 2]), 'hex').digest('hex')"),
        _fn("C.createHash('sha1').update(new ArrayBuffer(2))"),
        _fn("C.createHash('sha1').update(123)"),
        _fn("C.createHash('sha1').update(null)"),
        _fn("C.createHash('sha1').update()"),
        _fn("C.createHash('sha1').update({})"),
        _fn("C.createHash('sha1').update([1])"),
        _fn("C.createHash('sha1').update(true)"),
        _fn("C.createHash('sha1').update(function named() {})"),
        _fn("C.createHash('sha1').update(5n)"),
        _fn("C.createHash('sha1').update(Symbol('s'))"),
        _fn("C.createHash('sha1').update('x'.repeat(40), 'hex')"),
        _fn("C.createHash('nope')"),
        _fn("C.createHash('sha256 ')"),
        _fn("C.createHash('sha512/256')"),
        _fn("C.createHash()"),
        _fn("C.createHash(5)"),
        _fn("C.createHash({})"),
        _fn("{ const h = C.createHash('sha256'); return h.update('x') === h; }"),
        _fn("{ const h = C.createHash('sha256'); h.digest(); h.update('x'); }"),
        _fn("{ const h = C.createHash('sha256'); h.digest(); h.digest(); }"),
        _fn("{ const h = C.createHash('sha256'); h.digest(); h.copy(); }"),
        _fn(
            "{ const h = C.createHash('sha1').update('a'); const d = h.copy(); h.update('b'); "
            "return [h.digest('hex'), d.digest('hex'), d.update === h.update]; }"
        ),
        _fn(
            "{ const h = C.createHash('sha512').update('a'.repeat(200)); const d = h.copy().update('b'); "
            "return [h.digest('hex'), d.digest('hex')]; }"
        ),
        _fn("[C.createHash('md5') instanceof C.Hash, typeof C.Hash, C.createHash.length, C.hash.length]"),
        _fn("['update', 'digest', 'copy'].map((m) => typeof C.Hash.prototype[m])"),
        _fn(
            "{ let h = C.createHash('sha256'); for (let i = 0; i < 300; i++) h.update(String.fromCharCode(i)); "
            "return h.digest('hex'); }"
        ),
    ]
)

_ONE_SHOT = [
    _fn("C.hash('sha1', 'abc')"),
    _fn("C.hash('md5', '')"),
    _fn("C.hash('SHA256', 'abc', 'base64')"),
    _fn("C.hash('sha256', 'abc', 'base64url')"),
    _fn("C.hash('sha256', 'abc', 'buffer')"),
    _fn("C.hash('sha256', 'abc', 'BUFFER')"),
    _fn("C.hash('sha1', new Uint8Array([97, 98, 99]))"),
    _fn("C.hash('sha1', new DataView(new ArrayBuffer(1)))"),
    _fn("C.hash('RSA-SHA1', 'abc')"),
    _fn("C.hash('sha1', '\u00e9')"),
    _fn("C.hash('nope', 'x')"),
    _fn("C.hash(5, 'x')"),
    _fn("C.hash('sha1')"),
    _fn("C.hash('sha1', 5)"),
    _fn("C.hash('nope', 5)"),
    _fn("C.hash('sha1', new ArrayBuffer(1))"),
    _fn("C.hash('sha1', 'x', 'foo')"),
    _fn("C.hash('sha1', 'x', 5)"),
    _fn("C.hash('sha1', 'x', 'latin1')"),
]

_HMAC = [
    _fn(f"C.createHmac('{name}', 'key').update({_TEXT}).digest('hex')")
    for name in ("md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256")
] + [
    _fn("C.createHmac('sha256', '').update('x').digest('hex')"),
    _fn("C.createHmac('sha256', 'k'.repeat(200)).update('x').digest('hex')"),
    _fn("C.createHmac('sha512', 'k'.repeat(200)).update('x').digest('base64')"),
    _fn("C.createHmac('SHA256', 'secret').update('a').update('b').digest('base64url')"),
    _fn("C.createHmac('sha256', 'sécret ✓').update('msg').digest('hex')"),
    _fn("C.createHmac('sha256', new Uint8Array([1, 2, 3])).update('msg').digest('hex')"),
    _fn("C.createHmac('sha256', new Uint8Array([1, 2, 3]).buffer).update('msg').digest('hex')"),
    _fn("C.createHmac('sha256', new DataView(new Uint8Array([0, 1, 2, 3]).buffer, 1)).update('msg').digest('hex')"),
    _fn("C.createHmac('sha1', 'k').update('6d7367', 'hex').digest('hex')"),
    _fn("C.createHmac('sha1', 'k').update('msg').digest()"),
    _fn("{ const h = C.createHmac('sha1', 'k'); h.digest('hex'); return [h.digest('hex'), h.digest()]; }"),
    _fn("{ const h = C.createHmac('sha1', 'k'); h.digest(); h.update('x'); }"),
    _fn("{ const h = C.createHmac('sha1', 'k'); return h.update('x') === h; }"),
    _fn("typeof C.createHmac('sha1', 'k').copy"),
    _fn("C.createHmac('nope', 'k')"),
    _fn("C.createHmac('sha3-256', 'k').update('x').digest('hex').length"),
    _fn("C.createHmac(5, 'k')"),
    _fn("C.createHmac()"),
    _fn("C.createHmac('sha1')"),
    _fn("C.createHmac('sha1', null)"),
    _fn("C.createHmac('sha1', 5)"),
    _fn("C.createHmac('sha1', {})"),
    _fn("C.createHmac('nope', 5)"),
    _fn("C.createHmac('sha1', 'k').update(5)"),
    _fn("[C.createHmac('md5', 'k') instanceof C.Hmac, typeof C.Hmac, C.createHmac.length]"),
    _fn(
        "crypto.subtle.importKey('raw', new Uint8Array([1, 2]), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign'])"
        ".then((k) => C.createHmac('sha256', k).update('x').digest('hex'))"
    ),
]

_RANDOM = [
    _fn("[C.randomBytes(0).length, C.randomBytes(16).length, C.randomBytes(1.5).length, C.randomBytes(-0).length]"),
    _fn("C.randomBytes(8) instanceof Uint8Array"),
    _fn("{ const a = C.randomBytes(32); const b = C.randomBytes(32); return a.some((x, i) => x !== b[i]); }"),
    _fn("C.randomBytes(-1)"),
    _fn("C.randomBytes('5')"),
    _fn("C.randomBytes(null)"),
    _fn("C.randomBytes()"),
    _fn("C.randomBytes(NaN)"),
    _fn("C.randomBytes(Infinity)"),
    _fn("C.randomBytes(2 ** 31)"),
    _fn("C.randomBytes(4294967296)"),
    _fn("C.randomBytes(2, 5)"),
    _later("C.randomBytes(4, ") + ".then(([e, b]) => [e, b.length, b instanceof Uint8Array])",
    _fn(
        "{ const order = []; C.randomBytes(2, () => order.push('callback')); order.push('after'); "
        "return new Promise((r) => setTimeout(() => r(order), 5)); }"
    ),
    _fn("{ const a = new Uint8Array(8); const r = C.randomFillSync(a); return [r === a, a.length]; }"),
    _fn("{ const a = new Uint8Array(8); C.randomFillSync(a, 2, 3); return [a[0], a[1], a[5], a[6], a[7]]; }"),
    _fn("{ const a = new Uint32Array(4); C.randomFillSync(a, 1, 2); return [a[0], a[3]]; }"),
    _fn("{ const a = new ArrayBuffer(4); return C.randomFillSync(a) === a; }"),
    _fn("{ const a = new DataView(new ArrayBuffer(4)); return C.randomFillSync(a) === a; }"),
    _fn("C.randomFillSync([1, 2])"),
    _fn("C.randomFillSync(new Uint8Array(4), 5)"),
    _fn("C.randomFillSync(new Uint8Array(4), -1)"),
    _fn("C.randomFillSync(new Uint8Array(4), '1')"),
    _fn("C.randomFillSync(new Uint8Array(4), 1, 4)"),
    _fn("C.randomFillSync(new Uint8Array(4), 0, -1)"),
    _fn("C.randomFillSync(new Uint8Array(4), 0, '1')"),
    _fn("C.randomFillSync(new Uint32Array(2), 3)"),
    _fn("C.randomFill(new Uint8Array(2))"),
    _fn("C.randomFill(new Uint8Array(2), 0, 1)"),
    _later("C.randomFill(new Uint8Array(4), ") + ".then(([e, b]) => [e, b.length])",
    _later("C.randomFill(new Uint8Array(4), 1, ") + ".then(([e, b]) => [e, b[0]])",
    _later("C.randomFill(new Uint8Array(4), 1, 2, ") + ".then(([e, b]) => [e, b[0], b[3]])",
    _fn("/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(C.randomUUID())"),
    _fn("C.randomUUID({ disableEntropyCache: true }).length"),
    _fn("C.randomUUID(5)"),
    _fn("C.randomUUID(null)"),
    _fn("C.randomUUID({ disableEntropyCache: 5 })"),
    _fn("C.randomUUID() !== C.randomUUID()"),
    _fn("Array.from({ length: 200 }, () => C.randomInt(3)).every((x) => x >= 0 && x < 3)"),
    _fn("new Set(Array.from({ length: 300 }, () => C.randomInt(3))).size"),
    _fn("Array.from({ length: 200 }, () => C.randomInt(-5, -3)).every((x) => x === -5 || x === -4)"),
    _fn("C.randomInt(1)"),
    _fn("C.randomInt(7, 8)"),
    _fn("[typeof C.randomInt(2 ** 48 - 1), Number.isInteger(C.randomInt(-(2 ** 47), 2 ** 47 - 1))]"),
    _fn("C.randomInt(1, undefined)"),
    _fn("C.randomInt(0)"),
    _fn("C.randomInt(-5)"),
    _fn("C.randomInt(10, 5)"),
    _fn("C.randomInt(5, 5)"),
    _fn("C.randomInt(1.5)"),
    _fn("C.randomInt('5')"),
    _fn("C.randomInt('1', 5)"),
    _fn("C.randomInt()"),
    _fn("C.randomInt(null)"),
    _fn("C.randomInt(1, null)"),
    _fn("C.randomInt(2 ** 48)"),
    _fn("C.randomInt(0, 2 ** 48)"),
    _fn("C.randomInt(-(2 ** 47), 2 ** 47)"),
    _fn("C.randomInt(2 ** 53)"),
    _fn("C.randomInt(-(2 ** 53), 0)"),
    _fn("C.randomInt(1, 5, 7)"),
    _fn("C.randomInt(1, 2, 3, 4)"),
    _later("C.randomInt(3, ") + ".then(([e, n]) => [e, n >= 0 && n < 3])",
    _later("C.randomInt(10, 12, ") + ".then(([e, n]) => [e, n === 10 || n === 11])",
    _fn("typeof C.randomInt(5, () => {})"),
    _fn("[C.randomBytes.length, C.randomInt.length, C.randomFillSync.length, C.randomUUID.length]"),
    _fn("{ const a = new Uint8Array(4); return [C.getRandomValues(a) === a, a.length]; }"),
    _fn("C.getRandomValues(new Float32Array(1))"),
    _fn("C.getRandomValues(new Uint8Array(65537))"),
    _fn("C.getRandomValues()"),
]

_COMPARE = [
    _fn("C.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))"),
    _fn("C.timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3]))"),
    _fn("C.timingSafeEqual(new Uint8Array(0), new Uint8Array(0))"),
    _fn("C.timingSafeEqual(new ArrayBuffer(2), new Uint16Array(1))"),
    _fn("C.timingSafeEqual(new DataView(new ArrayBuffer(2)), new Uint8Array(2))"),
    _fn("C.timingSafeEqual(new Uint8Array(1), new Uint8Array(2))"),
    _fn("C.timingSafeEqual('a', 'a')"),
    _fn("C.timingSafeEqual(new Uint8Array(1), 'a')"),
    _fn("C.timingSafeEqual()"),
    _fn("C.timingSafeEqual(new Uint16Array(1), new Uint8Array(2))"),
]

_DERIVE = [
    _fn("C.pbkdf2Sync('password', 'salt', 1, 20, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1000, 64, 'sha512')"),
    _fn("C.pbkdf2Sync('password', 'salt', 3, 100, 'SHA384')"),
    _fn("C.pbkdf2Sync('p', 's', 2, 20, 'md5')"),
    _fn("C.pbkdf2Sync('p', 's', 2, 20, 'sha512-256')"),
    _fn("C.pbkdf2Sync(new ArrayBuffer(1), new DataView(new ArrayBuffer(1)), 2, 20, 'sha256')"),
    _fn("C.pbkdf2Sync(new Uint8Array([1, 2]), new Uint8Array(0), 2, 20, 'sha256')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1, 0, 'sha1')"),
    _fn("C.pbkdf2Sync('p\u00e9', 's\u2713', 1, 16, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1, 20)"),
    _fn("C.pbkdf2Sync('password', 'salt', 1, 20, 'nope')"),
    _fn("C.pbkdf2Sync('password', 'salt', 0, 20, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1.5, 20, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', '1', 20, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1, -1, 'sha1')"),
    _fn("C.pbkdf2Sync('password', 'salt', 1, 2 ** 31, 'sha1')"),
    _fn("C.pbkdf2Sync(5, 'salt', 1, 20, 'sha1')"),
    _fn("C.pbkdf2Sync('p', 5, 1, 20, 'sha1')"),
    _fn("C.pbkdf2Sync(5, 6, 'x', 'y', 7)"),
    _fn("C.pbkdf2Sync(5, 6, 'x', 'y', 'sha1')"),
    _fn("C.pbkdf2Sync('p', 's', 'x', 'y', 'nope')"),
    _later("C.pbkdf2('password', 'salt', 1, 20, 'sha1', ") + ".then(([e, k]) => [e, k])",
    _fn("C.pbkdf2('p', 's', 1, 20, 'sha1')"),
    _fn("C.pbkdf2('p', 's', 1, 20, 'nope')"),
    _fn("C.pbkdf2('p', 's', 1, 20, 'nope', () => {})"),
    _fn("C.pbkdf2('p', 's', 1, 20, () => {})"),
    _fn("C.hkdfSync('sha256', 'key', 'salt', 'info', 16)"),
    _fn("C.hkdfSync('sha1', 'key', '', '', 42)"),
    _fn("C.hkdfSync('SHA512', new Uint8Array([1]), new ArrayBuffer(2), new DataView(new ArrayBuffer(3)), 100)"),
    _fn("C.hkdfSync('md5', 'k', 'salt', 'info', 16)"),
    _fn("C.hkdfSync('sha1', '', 'salt', 'info', 16)"),
    _fn("C.hkdfSync('sha1', 'k', 'salt', 'info', 0)"),
    _fn("C.hkdfSync('sha256', 'key', 'salt', 'info', 255 * 32).byteLength"),
    _fn("C.hkdfSync('sha256', 'key', 'salt', 'info', 255 * 32 + 1)"),
    _fn("C.hkdfSync('sha256', 'key', 'salt', 'x'.repeat(1024), 16).byteLength"),
    _fn("C.hkdfSync('sha256', 'key', 'salt', 'x'.repeat(1025), 16)"),
    _fn("C.hkdfSync('nope', 'key', 'salt', 'info', 16)"),
    _fn("C.hkdfSync(5, 'key', 'salt', 'info', 16)"),
    _fn("C.hkdfSync('sha1', 5, 'salt', 'info', 16)"),
    _fn("C.hkdfSync('sha1', 'k', 5, 'info', 16)"),
    _fn("C.hkdfSync('sha1', 'k', 'salt', 5, 16)"),
    _fn("C.hkdfSync('sha1', 'k', 'salt', 'info', '16')"),
    _fn("C.hkdfSync('sha1', 'k', 'salt', 'info', 1.5)"),
    _fn("C.hkdfSync('sha1', 'k', 'salt', 'info', -1)"),
    _fn("C.hkdfSync(5, 6, 7, 8, 'x')"),
    _later("C.hkdf('sha256', 'key', 'salt', 'info', 8, ") + ".then(([e, k]) => [e, k])",
    _fn("C.hkdf('sha1', 'k', 's', 'i', 5)"),
]

_MODULE = [
    _fn("Object.keys(C)"),
    _fn("require('crypto') === require('node:crypto')"),
    _fn("[C.webcrypto === crypto, C.subtle === crypto.subtle, typeof C.getRandomValues]"),
    _fn("Array.isArray(C.getHashes()) && C.getHashes().includes('sha256') && C.getHashes().includes('md5')"),
    _fn(
        "['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'RSA-SHA256'].every((h) => C.getHashes().includes(h))"
    ),
    _fn("C.getHashes().every((h) => { try { C.createHash(h); return true; } catch { return false; } })"),
    _fn("C.getHashes() !== C.getHashes()"),
    _fn("C.getCipherInfo('nope')"),
    _fn("[typeof C.createCipheriv, typeof C.KeyObject, typeof C.scryptSync]"),
]


def _escaped(case: str) -> str:
    """The case with every non-ASCII character as a JavaScript escape (they all sit in string literals), so that
    lone surrogates survive JSON and the text is the same wherever it is read from."""
    units = case.encode("utf-16-le", "surrogatepass")
    out = []
    for i in range(0, len(units), 2):
        unit = units[i] | (units[i + 1] << 8)
        out.append(chr(unit) if unit < 0x80 else f"\\u{unit:04x}")
    return "".join(out)


CASES: dict[str, list[str]] = {
    group: [_escaped(case) for case in cases]
    for group, cases in {
        "hash": _HASH,
        "one-shot": _ONE_SHOT,
        "hmac": _HMAC,
        "random": _RANDOM,
        "compare": _COMPARE,
        "derive": _DERIVE,
        "module": _MODULE,
    }.items()
}
