"""Snippets run both in Node 20 and in the web modules, with the JavaScript that describes
their outcome the same way in both engines.

Each case is an expression for a function of no arguments (it may be async). `DESCRIBE`
turns what it returns or throws into JSON: typed arrays and ArrayBuffers become
`{type, bytes}`, errors `{error: [constructor name, name, code, message]}`. The recorded
Node outcomes live in fixtures/node_cases.json (written by make_fixtures.py).
"""

from __future__ import annotations

DESCRIBE = r"""
(async function describeAll(sources) {
  const hex = (bytes) => Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
  const show = (value) => {
    if (value instanceof ArrayBuffer) return { type: 'ArrayBuffer', bytes: hex(new Uint8Array(value)) };
    if (ArrayBuffer.isView(value)) {
      return { type: value.constructor.name, bytes: hex(new Uint8Array(value.buffer,
        value.byteOffset, value.byteLength)) };
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


_DOMEXCEPTION = [
    _fn(
        "{ const e = new DOMException('bad thing', 'InvalidCharacterError'); return [e.name, e.message, e.code, "
        "e instanceof Error, e instanceof DOMException, String(e), Object.prototype.toString.call(e)]; }"
    ),
    _fn("{ const e = new DOMException(); return [e.name, e.message, e.code, String(e)]; }"),
    _fn("{ const e = new DOMException(undefined, undefined); return [e.name, e.message]; }"),
    _fn("{ const e = new DOMException(null, null); return [e.name, e.message, e.code]; }"),
    _fn("{ const e = new DOMException(1, 2); return [e.name, e.message]; }"),
    _fn(
        "{ const e = new DOMException('m', { name: 'DataCloneError', cause: 7 }); return [e.name, e.code, e.cause, "
        "Object.prototype.hasOwnProperty.call(e, 'cause')]; }"
    ),
    _fn(
        "{ const e = new DOMException('m', { name: 'X', cause: undefined }); "
        "return ['cause' in e, e.cause === undefined]; }"
    ),
    _fn("{ const e = new DOMException('m', 'AbortError'); return Object.keys(e); }"),
    _fn("Object.getOwnPropertyNames(DOMException).filter((k) => k.endsWith('_ERR')).map((k) => [k, DOMException[k]])"),
    _fn("Object.getOwnPropertyNames(DOMException.prototype).filter((k) => k.endsWith('_ERR')).length"),
    _fn(
        "{ const d = Object.getOwnPropertyDescriptor(DOMException, 'ABORT_ERR'); return [d.writable, d.enumerable, "
        "d.configurable]; }"
    ),
    _fn(
        "['name', 'message', 'code'].map((k) => { const d = Object.getOwnPropertyDescriptor(DOMException.prototype, "
        "k); return [typeof d.get, d.enumerable, d.configurable]; })"
    ),
    _fn(
        "{ const d = Object.getOwnPropertyDescriptor(DOMException.prototype, Symbol.toStringTag); return [d.value, "
        "d.writable, d.enumerable, d.configurable]; }"
    ),
    _fn("[Object.getPrototypeOf(DOMException.prototype) === Error.prototype, DOMException.name, DOMException.length]"),
    _fn("Object.getOwnPropertyDescriptor(DOMException.prototype, 'code').get.call({})"),
    _fn("DOMException('x')"),
    _fn("new DOMException(Symbol())"),
    _fn("new DOMException('a', Symbol())"),
    _fn("new DOMException('a', { get name() { throw new RangeError('from getter'); } })"),
    _fn(
        "['IndexSizeError', 'HierarchyRequestError', 'WrongDocumentError', 'InvalidCharacterError', "
        "'NoModificationAllowedError', 'NotFoundError', 'NotSupportedError', 'InUseAttributeError', "
        "'InvalidStateError', 'SyntaxError', 'InvalidModificationError', 'NamespaceError', 'InvalidAccessError', "
        "'TypeMismatchError', 'SecurityError', 'NetworkError', 'AbortError', 'URLMismatchError', "
        "'QuotaExceededError', 'TimeoutError', 'InvalidNodeTypeError', 'DataCloneError', 'EncodingError', "
        "'NotReadableError', 'UnknownError', 'ConstraintError', 'DataError', 'TransactionInactiveError', "
        "'ReadOnlyError', 'VersionError', 'OperationError', 'NotAllowedError', 'ValidationError', 'Foo', "
        "'invalidcharactererror'].map((n) => new DOMException('', n).code)"
    ),
    _fn(
        "{ class Mine extends DOMException {} const e = new Mine('hi', 'AbortError'); return [e.name, e.code, "
        "e instanceof DOMException, e instanceof Mine]; }"
    ),
    _fn("{ try { throw new DOMException('inner', 'TimeoutError'); } catch (e) { return [e.name, e.message]; } }"),
    _fn("[new DOMException('m', {}).name, new DOMException('m', { name: undefined }).name]"),
]

_ATOB_INPUTS = [
    "",
    "YQ",
    "YQ=",
    "YQ==",
    "YQ===",
    "Y",
    "YWJj",
    " Y W\\tJ\\nj\\f\\r",
    "YW=J",
    "Y===",
    "YR==",
    "YQ=\\n=",
    "=",
    "==",
    "!",
    "YW\\u00e9",
    "YQ= =",
    "YWJ",
    "YWJ=",
    "ab-c",
    "ab_c",
    "A\\vB=",
    "AB\\u00a0",
    "AAAA=",
    "AAAAA",
    "AAAAA=",
    "AAAAA==",
    "AAAAA===",
    "AA==AA",
    "////",
    "+/+/",
    "AP8A",
    "aGVsbG8gd29ybGQ=",
    "aGVsbG8gd29ybGQ",
    "SGVsbG8sIOS4lueVjA==",
    "\\u0000",
    "YQ==\\u0000",
    "Y Q = =",
    "====",
    "A===",
    "AB=C",
    "8J+YgA==",
]
_BTOA_INPUTS = [
    "",
    "a",
    "ab",
    "abc",
    "abcd",
    "\\u00ff\\u00fe",
    "\\u0100",
    "\\ud83d",
    "hello world",
    "\\u0000\\u0001\\u0002",
    "\\u00e9t\\u00e9",
    "\\u20ac",
    "~~~~~",
]
_BASE64 = (
    [_fn(f"atob('{text}')") for text in _ATOB_INPUTS]
    + [_fn(f"btoa('{text}')") for text in _BTOA_INPUTS]
    + [
        _fn("atob()"),
        _fn("atob(undefined)"),
        _fn("atob(null)"),
        _fn("atob(12)"),
        _fn("atob(Symbol())"),
        _fn("atob({ toString() { return 'YQ=='; } })"),
        _fn("btoa()"),
        _fn("btoa(undefined)"),
        _fn("btoa(null)"),
        _fn("btoa(12)"),
        _fn("btoa(Symbol())"),
        _fn("btoa(String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)))"),
        _fn("atob(btoa(String.fromCharCode(...Array.from({ length: 256 }, (_, i) => 255 - i))))"),
        _fn("[atob.length, btoa.length, atob.name, btoa.name]"),
        _fn(
            "{ try { atob('!'); } catch (e) { return [e instanceof DOMException, e instanceof Error, e.code, "
            "e.INVALID_CHARACTER_ERR]; } }"
        ),
    ]
)

_U8 = "new Uint8Array"
_DECODE_BYTES = [
    "[]",
    "[0x41, 0x42]",
    "[0xef, 0xbb, 0xbf, 0x41]",
    "[0xef, 0xbb, 0xbf]",
    "[0xef, 0xbb]",
    "[0xff]",
    "[0xc0, 0x80]",
    "[0xc1, 0xbf]",
    "[0xc2]",
    "[0xc2, 0x41]",
    "[0xe0, 0x80, 0x80]",
    "[0xe0, 0xa0]",
    "[0xe0, 0xa0, 0x80]",
    "[0xed, 0xa0, 0x80]",
    "[0xed, 0x9f, 0xbf]",
    "[0xf0, 0x8f, 0xbf, 0xbf]",
    "[0xf0, 0x90, 0x80, 0x80]",
    "[0xf4, 0x8f, 0xbf, 0xbf]",
    "[0xf4, 0x90, 0x80, 0x80]",
    "[0xf5, 0x80]",
    "[0xf0, 0x9f, 0x98]",
    "[0xf0, 0x9f, 0x98, 0x41]",
    "[0x80, 0x80, 0x80]",
    "[0xfe, 0xff]",
    "[0xe2, 0x82, 0xac, 0xe2, 0x82]",
    "[0x41, 0xf0, 0x9f, 0x98, 0x80, 0x42]",
    "[0xf8, 0x88, 0x80, 0x80, 0x80]",
    "[0xc3, 0xa9, 0xc3]",
    "[0xed, 0xbf, 0xbf]",
    "[0x00, 0x7f, 0xc2, 0x80, 0xdf, 0xbf]",
]
_UTF16_BYTES = [
    "[]",
    "[0x41, 0x00]",
    "[0xff, 0xfe, 0x41, 0x00]",
    "[0xfe, 0xff, 0x00, 0x41]",
    "[0x41]",
    "[0x3d, 0xd8, 0x00, 0xde]",
    "[0x3d, 0xd8]",
    "[0x3d, 0xd8, 0x41, 0x00]",
    "[0x00, 0xde, 0x41, 0x00]",
    "[0xff, 0xfe, 0x41, 0x00, 0x3d, 0xd8, 0x41]",
    "[0x3d, 0xd8, 0x41, 0x00, 0x00, 0xde]",
]
_ENCODING = (
    [_fn(f"new TextDecoder().decode({_U8}({b}))") for b in _DECODE_BYTES]
    + [_fn(f"new TextDecoder('utf-8', {{ fatal: true }}).decode({_U8}({b}))") for b in _DECODE_BYTES]
    + [_fn(f"new TextDecoder('utf-8', {{ ignoreBOM: true }}).decode({_U8}({b}))") for b in _DECODE_BYTES[:5]]
    + [_fn(f"new TextDecoder('utf-16le').decode({_U8}({b}))") for b in _UTF16_BYTES]
    + [_fn(f"new TextDecoder('utf-16le', {{ fatal: true }}).decode({_U8}({b}))") for b in _UTF16_BYTES]
    + [_fn(f"new TextDecoder('utf-16be').decode({_U8}({b}).reverse())") for b in _UTF16_BYTES[:4]]
    + [
        _fn(
            "new TextDecoder('ascii').decode(new Uint8Array(Array.from({ length: 256 }, (_, i) => i))"
            ".subarray(0x20, 0x80))"
        ),
        _fn("new TextDecoder('latin1').decode(new Uint8Array(Array.from({ length: 96 }, (_, i) => 160 + i)))"),
        _fn("new TextDecoder('windows-1252').decode(new Uint8Array(Array.from({ length: 32 }, (_, i) => 128 + i)))"),
        _fn("new TextDecoder('gbk').encoding"),
        _fn("new TextEncoder().encode('h\\u00e9\\u20ac\\ud83d\\ude00')"),
        _fn("new TextEncoder().encode('a\\ud83db\\ude00c\\udc00\\ud800')"),
        _fn("new TextEncoder().encode()"),
        _fn("new TextEncoder().encode(undefined)"),
        _fn("new TextEncoder().encode(null)"),
        _fn("new TextEncoder().encode(12.5)"),
        _fn("new TextEncoder().encode(Symbol())"),
        _fn(
            "{ const b = new Uint8Array(5); const r = new TextEncoder().encodeInto('a\\u00e9\\u20ac', b); "
            "return [r, b]; }"
        ),
        _fn("new TextEncoder().encodeInto('\\ud83d\\ude00x', new Uint8Array(3))"),
        _fn("new TextEncoder().encodeInto('\\ud83d\\ude00x', new Uint8Array(4))"),
        _fn("new TextEncoder().encodeInto('\\ud83dx', new Uint8Array(3))"),
        _fn("{ const b = new Uint8Array(8); return [new TextEncoder().encodeInto('abc', b.subarray(2, 4)), b]; }"),
        _fn("new TextEncoder().encodeInto('a', [])"),
        _fn("new TextEncoder().encodeInto('a')"),
        _fn("new TextEncoder().encodeInto('a', new Uint16Array(2))"),
        _fn("new TextEncoder().encodeInto('a', 'abc')"),
        _fn("new TextEncoder().encodeInto('a', null)"),
        _fn("new TextEncoder().encodeInto('a', {})"),
        _fn("new TextEncoder().encodeInto('a', 12n)"),
        _fn("new TextEncoder().encodeInto('a', function foo() {})"),
        _fn("new TextEncoder().encodeInto('a', Symbol('q'))"),
        _fn("new TextEncoder().encodeInto('a', 'b'.repeat(28))"),
        _fn("new TextEncoder().encodeInto('a', 'b'.repeat(29))"),
        _fn("new TextEncoder().encodeInto('a', \"it's\".repeat(9))"),
        _fn("new TextEncoder().encodeInto('a', Object.create(null))"),
        _fn("TextEncoder()"),
        _fn("TextEncoder.prototype.encode.call({}, 'a')"),
        _fn("TextDecoder.prototype.decode.call({}, new Uint8Array(1))"),
        _fn("Object.getOwnPropertyDescriptor(TextDecoder.prototype, 'encoding').get.call({})"),
        _fn("new TextDecoder('foo')"),
        _fn("new TextDecoder(' FOO ')"),
        _fn("new TextDecoder('')"),
        _fn("new TextDecoder(null)"),
        _fn("new TextDecoder(Symbol())"),
        _fn("new TextDecoder('x-user-defined')"),
        _fn("new TextDecoder('utf8', 5)"),
        _fn("new TextDecoder('utf8', 'abc')"),
        _fn("new TextDecoder('utf8', true)"),
        _fn("new TextDecoder('utf8', -0)"),
        _fn("new TextDecoder('utf8', \"it's\")"),
        _fn("new TextDecoder('utf8', { get fatal() { throw new Error('boom'); } })"),
        _fn(
            "{ const d = new TextDecoder('utf8', { fatal: 1, ignoreBOM: 'x' }); "
            "return [d.encoding, d.fatal, d.ignoreBOM]; }"
        ),
        _fn("{ const d = new TextDecoder('utf8', null); return [d.encoding, d.fatal, d.ignoreBOM]; }"),
        _fn("{ const d = new TextDecoder(undefined, () => 1); return [d.encoding, d.fatal]; }"),
        _fn("new TextDecoder().decode('abc')"),
        _fn("new TextDecoder().decode(123)"),
        _fn("new TextDecoder().decode(null)"),
        _fn("new TextDecoder().decode()"),
        _fn("new TextDecoder().decode(undefined, { stream: true })"),
        _fn("new TextDecoder().decode(new Uint8Array([0x68, 0x69]).buffer)"),
        _fn("new TextDecoder().decode(new DataView(new Uint8Array([0, 0x68, 0x69, 0]).buffer, 1, 2))"),
        _fn("new TextDecoder().decode(new Uint16Array([0x6968]))"),
        _fn("new TextDecoder().decode(new SharedArrayBuffer(2))"),
        _fn(
            "{ const b = new Uint8Array(new SharedArrayBuffer(3)); b[0] = 0x68; b[1] = 0x69; "
            "return new TextDecoder().decode(b.subarray(0, 2)); }"
        ),
        _fn("new TextDecoder().decode(new Uint8Array([0x61, 0x62, 0x63, 0x64]).subarray(1, 3))"),
        _fn("new TextDecoder().decode(new Uint8Array(2), 5)"),
        _fn(
            "{ const d = new TextDecoder('utf-8', { fatal: true }); const r = [d.decode(new Uint8Array([0xe2, 0x82]), "
            "{ stream: true }), d.decode(new Uint8Array([0xac]))]; try { d.decode(new Uint8Array([0xe2])); } catch (e) "
            "{ r.push(e.code); } r.push(d.decode(new Uint8Array([0x41]))); return r; }"
        ),
        _fn(
            "{ const d = new TextDecoder(); return [d.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])), "
            "d.decode(new Uint8Array([0xef, 0xbb]), { stream: true }), d.decode(new Uint8Array([0xbf, 0x42]), "
            "{ stream: true }), d.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x43]))]; }"
        ),
        _fn(
            "{ const d = new TextDecoder(); return [d.decode(new Uint8Array([0xf0, 0x9f]), { stream: true }), "
            "d.decode(new Uint8Array([0x98]), { stream: true }), d.decode(new Uint8Array([0x80, 0xf0]), "
            "{ stream: true }), d.decode()]; }"
        ),
        _fn(
            "{ const d = new TextDecoder(); return [d.decode(new Uint8Array([0xe2]), { stream: true }), "
            "d.decode(new Uint8Array([0x41]), { stream: true }), d.decode(new Uint8Array([0xe2, 0x82]))]; }"
        ),
        _fn(
            "{ const d = new TextDecoder('utf-16le'); return [d.decode(new Uint8Array([0xff]), { stream: true }), "
            "d.decode(new Uint8Array([0xfe, 0x41]), { stream: true }), d.decode(new Uint8Array([0x00, 0x3d, 0xd8]), "
            "{ stream: true }), d.decode(new Uint8Array([0x00, 0xde]))]; }"
        ),
        _fn(
            "['utf-8', 'utf8', 'UTF-8', ' utf-8\\n', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', "
            "'x-unicode20utf8', 'utf-16', 'utf-16le', 'ucs-2', 'unicode', 'csunicode', 'iso-10646-ucs-2', "
            "'unicodefeff', 'utf-16be', 'unicodefffe', 'latin1', 'ascii', 'us-ascii', 'iso-8859-1', 'iso8859-1', "
            "'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'iso-ir-100', 'l1', 'cp1252', 'cp819', 'ibm819', "
            "'csisolatin1', 'ansi_x3.4-1968', 'windows-1252', 'x-cp1252'].map((l) => new TextDecoder(l).encoding)"
        ),
        _fn(
            "{ const e = new TextEncoder(); const d = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }); "
            "return [e.encoding, d.encoding, d.fatal, d.ignoreBOM, Object.prototype.toString.call(e), "
            "Object.prototype.toString.call(d)]; }"
        ),
        _fn("[Object.getOwnPropertyNames(TextEncoder.prototype), Object.getOwnPropertyNames(TextDecoder.prototype)]"),
        _fn(
            "['encoding', 'encode', 'encodeInto'].map((k) => Object.getOwnPropertyDescriptor(TextEncoder.prototype, "
            "k).enumerable)"
        ),
        _fn(
            "[TextDecoder.length, TextEncoder.length, TextDecoder.prototype.decode.length, "
            "TextEncoder.prototype.encodeInto.length, TextEncoder.prototype.encode.length]"
        ),
    ]
)

_HEX = "(b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('')"
_CRYPTO = [
    _fn("crypto.getRandomValues(new Float32Array(2))"),
    _fn("crypto.getRandomValues(new Float64Array(0))"),
    _fn("crypto.getRandomValues(new Uint8Array(65537))"),
    _fn("crypto.getRandomValues(new Uint32Array(16385))"),
    _fn("crypto.getRandomValues([1, 2])"),
    _fn("crypto.getRandomValues()"),
    _fn("crypto.getRandomValues(null)"),
    _fn("crypto.getRandomValues(new DataView(new ArrayBuffer(4)))"),
    _fn(
        "['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', "
        "'BigInt64Array', 'BigUint64Array'].map((t) => { const a = new globalThis[t](4); return "
        "crypto.getRandomValues(a) === a; })"
    ),
    _fn(
        "[crypto.getRandomValues(new Uint8Array(65536)).length, crypto.getRandomValues(new Uint32Array(16384)).length]"
    ),
    _fn("crypto.getRandomValues.call({}, new Uint8Array(2))"),
    _fn("crypto.getRandomValues(new Uint8Array(new SharedArrayBuffer(4))).length"),
    _fn("crypto.subtle.digest('SHA-1', new SharedArrayBuffer(4)).then((b) => b.byteLength)"),
    _fn("new crypto.constructor()"),
    _fn("crypto.randomUUID.call({})"),
    _fn("/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())"),
    _fn(
        "[crypto.randomUUID.length, crypto.getRandomValues.length, crypto.subtle.digest.length, "
        "crypto.subtle.digest.name]"
    ),
    _fn(
        "[Object.prototype.toString.call(crypto), Object.prototype.toString.call(crypto.subtle), "
        "crypto.constructor.name, crypto.subtle.constructor.name, crypto instanceof Crypto, "
        "crypto.subtle instanceof SubtleCrypto, crypto.subtle === crypto.subtle]"
    ),
    _fn("[Object.getOwnPropertyNames(Crypto.prototype), Object.getOwnPropertyNames(SubtleCrypto.prototype)]"),
    _fn(
        "['subtle', 'getRandomValues', 'randomUUID'].map((k) => Object.getOwnPropertyDescriptor(Crypto.prototype, "
        "k).enumerable)"
    ),
    _fn(f"crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc')).then({_HEX})"),
    _fn(f"crypto.subtle.digest({{ name: 'sha-1' }}, new Uint8Array([97, 98, 99]).buffer).then({_HEX})"),
    _fn(f"crypto.subtle.digest('sha-384', new DataView(new Uint8Array([0, 97, 98, 99]).buffer, 1)).then({_HEX})"),
    _fn(f"crypto.subtle.digest('Sha-512', new Float64Array([1.5, -2])).then({_HEX})"),
    _fn(f"crypto.subtle.digest('SHA-256', new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 4)).then({_HEX})"),
    _fn(
        "crypto.subtle.digest('SHA-256', new Uint8Array(3)).then((b) => [Object.prototype.toString.call(b), "
        "b.byteLength])"
    ),
    _fn("crypto.subtle.digest('MD5', new Uint8Array(1))"),
    _fn("crypto.subtle.digest('MD5', 'abc')"),
    _fn("crypto.subtle.digest('SHA-256', 'abc')"),
    _fn("crypto.subtle.digest('SHA-256')"),
    _fn("crypto.subtle.digest()"),
    _fn("crypto.subtle.digest(5, new Uint8Array(1))"),
    _fn("crypto.subtle.digest({}, new Uint8Array(1))"),
    _fn("crypto.subtle.digest({ name: 'SHA-256' }, [1, 2])"),
    _fn("crypto.subtle.digest(Symbol(), new Uint8Array(1))"),
    _fn("crypto.subtle.digest.call({}, 'sha-256', new Uint8Array(1))"),
    _fn("crypto.subtle.digest('SHA-512/256', new Uint8Array(1))"),
    _fn("crypto.subtle.digest(' SHA-256', new Uint8Array(1))"),
    _fn("crypto.subtle.digest('SHA256', new Uint8Array(1))"),
    _fn(
        "{ let thrown = false; let p; try { p = crypto.subtle.digest('nope', new Uint8Array(1)); } catch { thrown = "
        "true; } if (p) p.catch(() => {}); return [thrown, p instanceof Promise]; }"
    ),
]

_PERFORMANCE = [
    _fn(
        "[typeof performance.now(), performance.now() >= 0, typeof performance.timeOrigin, "
        "Object.prototype.toString.call(performance), performance.constructor.name]"
    ),
    _fn("Object.keys(performance.toJSON()).includes('timeOrigin')"),
    _fn(
        "{ performance.mark('a', { startTime: 5, detail: { x: 1 } }); performance.mark('b', { startTime: 2 }); "
        "const m = performance.measure('a-b', 'b', 'a'); const r = [m.toJSON(), "
        "performance.getEntries().map((e) => [e.name, e.entryType, e.startTime]), "
        "performance.getEntriesByName('a').length, performance.getEntriesByType('measure').length, "
        "Object.prototype.toString.call(m)]; performance.clearMarks(); performance.clearMeasures(); "
        "r.push(performance.getEntries().length); return r; }"
    ),
    _fn(
        "{ const r = [performance.measure('m', { start: 1, end: 3 }).toJSON(), performance.measure('m', { start: 1, "
        "duration: 2 }).toJSON(), performance.measure('m', { end: 10, duration: 4, detail: 'd' }).toJSON()]; "
        "performance.clearMeasures(); return r; }"
    ),
    _fn(
        "{ performance.mark('x', { startTime: 1 }); performance.mark('y', { startTime: 2 }); "
        "performance.clearMarks('x'); const r = performance.getEntries().map((e) => e.name); performance.clearMarks(); "
        "return r; }"
    ),
    _fn("performance.measure('x', 'nope')"),
    _fn("performance.mark()"),
    _fn("performance.now.call({})"),
    _fn("new Performance()"),
    _fn("[Object.getOwnPropertyNames(PerformanceMark.prototype), PerformanceMark.name, PerformanceMeasure.name]"),
    _fn(
        "{ const m = performance.mark('z', { startTime: 3 }); performance.clearMarks(); return [m instanceof "
        "PerformanceEntry, m instanceof PerformanceMark, m.detail, m.duration, Object.keys(m)]; }"
    ),
    _fn(
        "{ const m = new PerformanceMark('x', { detail: 1, startTime: 3 }); return [m.toJSON(), "
        "performance.getEntries().length, Object.getPrototypeOf(PerformanceMark.prototype) === "
        "PerformanceEntry.prototype, PerformanceMark.length]; }"
    ),
    _fn("new PerformanceMark()"),
    _fn("new PerformanceMeasure()"),
    _fn("new PerformanceEntry()"),
]

CASES: dict[str, list[str]] = {
    "domexception": _DOMEXCEPTION,
    "base64": _BASE64,
    "encoding": _ENCODING,
    "crypto": _CRYPTO,
    "performance": _PERFORMANCE,
}
