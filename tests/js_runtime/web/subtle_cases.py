"""Snippets of crypto.subtle's key operations (HMAC, PBKDF2, HKDF), run both in Node 20 and in the web module.

Each case is an expression for a function of no arguments, described by web_cases.DESCRIBE; the recorded Node
outcomes live in fixtures/subtle_node.json (written by record_subtle_fixtures.py). A CryptoKey has no own
properties to show, so the cases return what they look at (`SHOW` gives type, extractable, algorithm, usages).
"""

from __future__ import annotations

S = "crypto.subtle"
TEXT = "new TextEncoder().encode"
SHOW = "(k) => [Object.prototype.toString.call(k), k.type, k.extractable, k.algorithm, k.usages]"


def _fn(body: str) -> str:
    return "() => " + body


def _key(
    hash_: str = "'SHA-256'", usages: str = "['sign', 'verify']", extractable: str = "true", data: str = "'key'"
) -> str:
    return f"{S}.importKey('raw', {TEXT}({data}), {{ name: 'HMAC', hash: {hash_} }}, {extractable}, {usages})"


def _import(fmt: str, data: str, algorithm: str, extractable: str = "true", usages: str = "['sign']") -> str:
    return _fn(f"{S}.importKey({fmt}, {data}, {algorithm}, {extractable}, {usages}).then({SHOW})")


def _jwk(jwk: str, usages: str = "['sign']", extractable: str = "true", hash_: str = "'SHA-256'") -> str:
    return _import("'jwk'", jwk, f"{{ name: 'HMAC', hash: {hash_} }}", extractable, usages)


def _sign(algorithm: str, message: str = "'The quick brown fox jumps over the lazy dog'", key: str = "") -> str:
    return _fn(f"({key or _key()}).then((k) => {S}.sign({algorithm}, k, {TEXT}({message})))")


PBKDF2_KEY = f"{S}.importKey('raw', {TEXT}('password'), 'PBKDF2', false, ['deriveBits', 'deriveKey'])"
HKDF_KEY = f"{S}.importKey('raw', {TEXT}('password'), {{ name: 'HKDF' }}, false, ['deriveBits', 'deriveKey'])"


def _pbkdf2(params: str = "", length: str = "256", key: str = PBKDF2_KEY) -> str:
    algorithm = f"{{ name: 'PBKDF2', salt: {TEXT}('salt'), iterations: 2, hash: 'SHA-256', {params} }}"
    return _fn(f"({key}).then((k) => {S}.deriveBits({algorithm}, k, {length}))")


def _hkdf(params: str = "", length: str = "128", key: str = HKDF_KEY) -> str:
    algorithm = f"{{ name: 'HKDF', salt: {TEXT}('salt'), info: {TEXT}('info'), hash: 'SHA-256', {params} }}"
    return _fn(f"({key}).then((k) => {S}.deriveBits({algorithm}, k, {length}))")


def _derive_key(target: str, usages: str = "['sign']", key: str = PBKDF2_KEY, extractable: str = "true") -> str:
    algorithm = f"{{ name: 'PBKDF2', salt: {TEXT}('salt'), iterations: 1000, hash: 'SHA-256' }}"
    return _fn(
        f"({key}).then((k) => {S}.deriveKey({algorithm}, k, {target}, {extractable}, {usages})).then(async (d) => "
        f"[({SHOW})(d), d.extractable ? await {S}.exportKey('jwk', d) : null])"
    )


_HMAC = "{ name: 'HMAC', hash: 'SHA-256' }"

_IMPORT = [
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="['sign', 'verify']"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'hmac', hash: 'sha-512' }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: { name: 'SHA-1' } }", extractable="false"),
    _import("'raw'", f"{TEXT}('key').buffer", "{ name: 'HMAC', hash: 'SHA-384' }", extractable="0"),
    _import("'raw'", f"new DataView({TEXT}('xkey').buffer, 1)", _HMAC),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="['verify', 'sign', 'sign']"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="new Set(['verify'])"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 24 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: '24' }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: undefined }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 20 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 32 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 23.5 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 0 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: null }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: -1 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: 2 ** 32 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-256', length: NaN }"),
    _import("'raw'", "new Uint8Array(0)", _HMAC),
    _import("'raw'", "new Uint8Array(0)", _HMAC, usages="['encrypt']"),
    _import("'raw'", "new Uint8Array(0)", _HMAC, usages="[]"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="[]"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="['encrypt']"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA-1', length: 8 }", usages="[]"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="['sing']"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="'sign'"),
    _import("'raw'", f"{TEXT}('key')", _HMAC, usages="5"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC' }"),
    _import("'raw'", f"{TEXT}('key')", "'HMAC'"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'MD5' }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: {} }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 5 }"),
    _import("'raw'", f"{TEXT}('key')", "{ name: 'HMAC', hash: 'SHA256' }"),
    _import("'raw'", f"{TEXT}('key')", "null"),
    _import("'raw'", f"{TEXT}('key')", "{}"),
    _import("'raw'", f"{TEXT}('key')", "'FOO'"),
    _import("'raw'", f"{TEXT}('key')", "'SHA-256'"),
    _import("'raw'", "'key'", _HMAC),
    _import("'raw'", "[1, 2, 3]", _HMAC),
    _import("'spki'", f"{TEXT}('key')", _HMAC),
    _import("'spki'", f"{TEXT}('key')", _HMAC, usages="['encrypt']"),
    _import("'pkcs8'", f"{TEXT}('key')", _HMAC),
    _import("'bogus'", f"{TEXT}('key')", _HMAC),
    _import("'bogus'", "'x'", "'FOO'"),
    _import("'raw'", "'x'", "'FOO'"),
    _import("'raw'", f"{TEXT}('key')", "'FOO'", usages="5"),
    _fn(f"{S}.importKey('raw', {TEXT}('key'), {_HMAC}, true)"),
    _fn(f"{S}.importKey('raw', {TEXT}('key'), {_HMAC})"),
    _fn(f"{S}.importKey()"),
    _fn(f"{S}.importKey.call({{}}, 'raw', {TEXT}('key'), {_HMAC}, true, ['sign'])"),
]

_JWK = [
    _jwk("{ kty: 'oct', k: 'a2V5', alg: 'HS256' }"),
    _jwk("{ kty: 'oct', k: 'a2V5' }", usages="['verify']"),
    _jwk("{ kty: 'oct', k: 'a2V5', alg: 'HS1' }", hash_="'SHA-1'"),
    _jwk("{ kty: 'oct', k: 'a2V5', alg: 'HS512' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', alg: 'hs256' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', alg: 5 }"),
    _jwk("{ kty: 'RSA', k: 'a2V5' }"),
    _jwk("{ kty: 5, k: 'a2V5' }"),
    _jwk("{ kty: '', k: 'a2V5' }"),
    _jwk("{ kty: 'oct' }"),
    _jwk("{ k: 'a2V5' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', use: 'enc' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', use: 'sig' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', ext: false }"),
    _jwk("{ kty: 'oct', k: 'a2V5', ext: false }", extractable="false"),
    _jwk("{ kty: 'oct', k: 'a2V5', ext: true }", extractable="false"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: ['sign'] }", usages="['verify']"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: ['sign', 'verify'] }"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: ['sign', 'sign'] }"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: ['verify', 'verify'] }"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: ['foo'] }"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: 'sign' }"),
    _jwk("{ kty: 'oct', k: 'a2V5', key_ops: [] }", usages="[]"),
    _jwk("{ kty: 'oct', k: 'a2V5' }", usages="[]"),
    _jwk("{ kty: 'oct', use: 'enc' }"),
    _jwk("{ kty: 'oct', key_ops: ['verify'] }"),
    _jwk("{ kty: 'oct', ext: false }"),
    _jwk("{ kty: 'oct', alg: 'HS512' }"),
    _jwk("{ use: 'enc' }"),
    _jwk("{ kty: 'RSA' }", usages="['encrypt']"),
    _jwk("{ kty: 'oct', k: 'AA', use: 'enc', key_ops: ['verify'] }"),
    _jwk("{ kty: 'oct', k: 'AA', ext: false, key_ops: ['verify'] }"),
    _jwk("{ kty: 'oct', k: 'AA', ext: false, alg: 'HS512' }"),
    _jwk("{ kty: 'oct', k: 'AA', key_ops: ['verify'], alg: 'HS512' }"),
    _jwk("null"),
    _jwk("[]"),
    _jwk("'x'"),
    _jwk(f"{TEXT}('k')"),
    _jwk("{ kty: 'oct', k: 'a2V5' }", hash_="'SHA-384'") + "",
    _fn(
        f"{S}.importKey('jwk', {{ kty: 'oct', k: 'a2V5', length: 16 }}, {{ name: 'HMAC', hash: 'SHA-256', "
        f"length: 16 }}, true, ['sign']).then({SHOW})"
    ),
]

_ROUND_TRIP = "(k) => {S}.exportKey('raw', k)".replace("{S}", S)
_JWK_BYTES = [
    _fn(f"{S}.importKey('jwk', {{ kty: 'oct', k: {k} }}, {_HMAC}, true, ['sign']).then({_ROUND_TRIP})")
    for k in ("'a2V5'", "'a+/='", "'a2V5='", "'a-_b'", "'!!!'", "''", "5", "null", "'YW Jj'", "'Y'")
]

_EXPORT = [
    _fn(f"({_key()}).then((k) => {S}.exportKey('raw', k))"),
    _fn(f"({_key()}).then((k) => {S}.exportKey('jwk', k))"),
    _fn(f"({_key(hash_=repr('SHA-1'), usages=repr(['verify']))}).then((k) => {S}.exportKey('jwk', k))"),
    _fn(f"({_key(hash_=repr('SHA-384'), usages=repr(['verify', 'sign']))}).then((k) => {S}.exportKey('jwk', k))"),
    _fn(
        f"({_key(hash_=repr('SHA-512'), data=repr('a longer key of 40 bytes for the jwk k!'))}).then((k) => "
        f"{S}.exportKey('jwk', k))"
    ),
    _fn(f"({_key()}).then((k) => {S}.exportKey('spki', k))"),
    _fn(f"({_key()}).then((k) => {S}.exportKey('pkcs8', k))"),
    _fn(f"({_key()}).then((k) => {S}.exportKey('foo', k))"),
    _fn(f"({_key(extractable='false')}).then((k) => {S}.exportKey('raw', k))"),
    _fn(f"({_key(extractable='false')}).then((k) => {S}.exportKey('jwk', k))"),
    _fn(f"({_key(extractable='false')}).then((k) => {S}.exportKey('spki', k))"),
    _fn(f"({_key(extractable='false')}).then((k) => {S}.exportKey('bogus', k))"),
    _fn(f"{S}.exportKey('raw', {{}})"),
    _fn(f"{S}.exportKey('bogus', {{}})"),
    _fn(f"{S}.exportKey('raw')"),
    _fn(f"({PBKDF2_KEY}).then((k) => {S}.exportKey('raw', k))"),
    _fn(
        f"({_key()}).then(async (k) => {{ const a = await {S}.exportKey('raw', k); const b = await "
        f"{S}.exportKey('raw', k); new Uint8Array(a)[0] = 0; return [a === b, new Uint8Array(b)[0]]; }})"
    ),
    _fn(
        f"({_key()}).then(async (k) => {{ const j = await {S}.exportKey('jwk', k); return [Object.keys(j), "
        f"Object.getPrototypeOf(j) === Object.prototype, j.key_ops === k.usages]; }})"
    ),
]

_SIGN = [
    _sign("'HMAC'"),
    _sign("{ name: 'hmac' }", "''"),
    _sign("{ name: 'HMAC', hash: 'SHA-1' }", "'x'"),
    _sign("'HMAC'", "'x'", _key(hash_="'SHA-1'")),
    _sign("'HMAC'", "'x'", _key(hash_="'SHA-384'")),
    _sign("'HMAC'", "'x'", _key(hash_="'SHA-512'")),
    _sign("'HMAC'", "'x'.repeat(1000)", _key(data="'k'.repeat(200)")),
    _sign("'HMAC'", "'x'", _key(usages="['verify']")),
    _sign("{}"),
    _sign("'AES-GCM'"),
    _sign("'FOO'"),
    _sign("'RSASSA-PKCS1-v1_5'"),
    _sign("{ name: 'ECDSA', hash: 'SHA-256' }"),
    _fn(f"({_key()}).then((k) => {S}.sign('HMAC', k, 'x'))"),
    _fn(f"({_key()}).then((k) => {S}.sign('HMAC', k))"),
    _fn(f"({_key()}).then((k) => {S}.sign.call({{}}, 'HMAC', k, new Uint8Array(1)))"),
    _fn(f"{S}.sign('HMAC', {{}}, new Uint8Array(1))"),
    _fn(f"{S}.sign('FOO', {{}}, 'x')"),
    _fn(f"{S}.sign()"),
    _fn(
        f"({_key()}).then(async (k) => {{ const s = await {S}.sign('HMAC', k, {TEXT}('x')); "
        f"return [Object.prototype.toString.call(s), s.byteLength]; }})"
    ),
    _fn(
        f"({_key()}).then(async (k) => {{ const s = await {S}.sign('HMAC', k, {TEXT}('msg')); return ["
        f"await {S}.verify('HMAC', k, s, {TEXT}('msg')), await {S}.verify('HMAC', k, s, {TEXT}('msh')), "
        f"await {S}.verify('HMAC', k, new Uint8Array(s).subarray(1), {TEXT}('msg')), "
        f"await {S}.verify('HMAC', k, new Uint8Array(64), {TEXT}('msg')), "
        f"await {S}.verify({{ name: 'hmac' }}, k, new DataView(s), {TEXT}('msg'))]; }})"
    ),
    _fn(f"({_key(usages=repr(['sign']))}).then((k) => {S}.verify('HMAC', k, new Uint8Array(32), new Uint8Array(1)))"),
    _fn(f"({_key()}).then((k) => {S}.verify('HMAC', k, 'x', new Uint8Array(1)))"),
    _fn(f"({_key()}).then((k) => {S}.verify('HMAC', k, new Uint8Array(1), 'x'))"),
    _fn(f"({_key()}).then((k) => {S}.verify('HMAC', k, new Uint8Array(1)))"),
    _fn(f"({_key()}).then((k) => {S}.verify('ECDSA', k, new Uint8Array(1), new Uint8Array(1)))"),
    _fn(
        f"({_key(usages=repr(['verify']))}).then(async (k) => {{ k.usages.push('sign'); "
        f"return {S}.sign('HMAC', k, new Uint8Array(1)); }})"
    ),
]

_GENERATE = [
    _fn(
        f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-512' }}, true, ['sign']).then(async (k) => [({SHOW})(k), "
        f"(await {S}.exportKey('raw', k)).byteLength])"
    ),
    _fn(
        f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-256' }}, true, ['sign', 'verify']).then(async (k) => "
        f"[({SHOW})(k), (await {S}.exportKey('raw', k)).byteLength])"
    ),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 8 }}, false, ['verify', 'sign']).then({SHOW})"),
    _fn(
        f"{S}.generateKey({{ name: 'HMAC', hash: {{ name: 'SHA-384' }} }}, 1, ['sign']).then(async (k) => "
        f"[({SHOW})(k), (await {S}.exportKey('jwk', k)).k.length])"
    ),
    _fn(
        f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 8 * 4096 }}, true, ['sign']).then(async (k) => "
        f"(await {S}.exportKey('raw', k)).byteLength)"
    ),
    _fn(
        f"Promise.all([1, 2].map(() => {S}.generateKey({{ name: 'HMAC', hash: 'SHA-256' }}, true, ['sign']).then("
        f"(k) => {S}.exportKey('raw', k)))).then(([a, b]) => new Uint8Array(a).join() !== new Uint8Array(b).join())"
    ),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-256', length: 100 }}, true, ['sign'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 7 }}, true, ['encrypt'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 7 }}, true, [])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 0 }}, true, ['encrypt'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 0 }}, true, [])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1', length: 0 }}, true, ['sign'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1' }}, true, ['encrypt'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-384' }}, true, [])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC' }}, true, ['sign'])"),
    _fn(f"{S}.generateKey('HMAC', true, ['sign'])"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1' }}, true)"),
    _fn(f"{S}.generateKey({{ name: 'HMAC', hash: 'SHA-1' }}, true, 'sign')"),
    _fn(f"{S}.generateKey({{ name: 'FOO' }}, true, ['sign'])"),
    _fn(f"{S}.generateKey('PBKDF2', false, ['deriveBits'])"),
    _fn(f"{S}.generateKey('SHA-256', false, ['sign'])"),
]

_DERIVE = [
    _pbkdf2(),
    _pbkdf2(length="0"),
    _pbkdf2(length="16"),
    _pbkdf2(length="'16'"),
    _pbkdf2(length="NaN"),
    _pbkdf2(length="null"),
    _pbkdf2(length="undefined"),
    _pbkdf2(length="12"),
    _pbkdf2(length="-1"),
    _pbkdf2("hash: 'SHA-1', iterations: 1", "160"),
    _pbkdf2("hash: 'SHA-512', iterations: 1000", "1024"),
    _pbkdf2("hash: 'SHA-384', iterations: 3", "400"),
    _pbkdf2("iterations: 1.5", "64"),
    _pbkdf2("iterations: 0"),
    _pbkdf2("iterations: 0", "null"),
    _pbkdf2("iterations: -1"),
    _pbkdf2("iterations: undefined"),
    _pbkdf2("salt: undefined"),
    _pbkdf2("salt: 'salt'"),
    _pbkdf2(f"salt: new DataView({TEXT}('salt').buffer)", "64"),
    _pbkdf2("salt: new Uint8Array(0)", "64"),
    _pbkdf2("hash: undefined"),
    _pbkdf2("hash: 'MD5'"),
    _pbkdf2("hash: 'MD5', salt: 'x'"),
    _pbkdf2("name: 'HKDF'"),
    _pbkdf2("name: 'ECDH'"),
    _pbkdf2("name: 'FOO'"),
    _pbkdf2(key=f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', false, ['deriveKey'])"),
    _pbkdf2(key=_key()),
    _fn(
        f"({PBKDF2_KEY}).then((k) => {S}.deriveBits({{ name: 'PBKDF2', salt: {TEXT}('s'), iterations: 1, "
        "hash: 'SHA-256' }, k))"
    ),
    _fn(f"({PBKDF2_KEY}).then((k) => {S}.deriveBits('PBKDF2', k, 256))"),
    _fn(f"{S}.deriveBits({{ name: 'PBKDF2' }}, {{}}, 8)"),
    _fn(f"{S}.deriveBits({{ name: 'FOO' }}, {{}}, 8)"),
    _fn(f"{S}.deriveBits({{ name: 'PBKDF2' }})"),
    _hkdf(),
    _hkdf(length="0"),
    _hkdf(length="255 * 256"),
    _hkdf(length="255 * 256 + 8"),
    _hkdf("hash: 'SHA-512'", "255 * 512 + 8"),
    _hkdf(length="12"),
    _hkdf(length="null"),
    _hkdf("hash: 'SHA-1'", "400"),
    _hkdf("hash: 'SHA-384', salt: new Uint8Array(0), info: new Uint8Array(0)", "384"),
    _hkdf("info: undefined"),
    _hkdf("salt: undefined"),
    _hkdf("info: 'x'"),
    _hkdf(key=PBKDF2_KEY),
    _fn(f"({PBKDF2_KEY}).then({SHOW})"),
    _fn(f"({HKDF_KEY}).then({SHOW})"),
    _fn(f"{S}.importKey('raw', new Uint8Array(0), 'PBKDF2', false, ['deriveBits']).then({SHOW})"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', true, ['deriveBits'])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'HKDF', true, ['deriveBits'])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', true, ['sign'])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', false, ['sign'])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'HKDF', false, ['sign'])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', false, [])"),
    _fn(f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', true, [])"),
    _fn(f"{S}.importKey('jwk', {{ kty: 'oct', k: 'a2V5' }}, 'PBKDF2', false, ['deriveBits'])"),
    _fn(f"{S}.importKey('jwk', {{}}, 'PBKDF2', true, ['sign'])"),
    _fn(f"{S}.importKey('jwk', {{}}, 'PBKDF2', false, ['sign'])"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-256' }"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-1' }", key=HKDF_KEY.replace("'deriveBits', 'deriveKey'", "'deriveKey'")),
    _derive_key("{ name: 'HMAC', hash: 'SHA-512', length: 64 }", usages="['verify']"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-512' }", extractable="false"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-1', length: 0 }"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-1', length: 12 }"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-1' }", usages="[]"),
    _derive_key("{ name: 'HMAC', hash: 'SHA-1' }", usages="['encrypt']"),
    _derive_key("'HMAC'"),
    _derive_key("'FOO'"),
    _derive_key("{ name: 'ECDSA', namedCurve: 'P-256' }"),
    _derive_key("'HKDF'", usages="['deriveBits']", extractable="false"),
    _derive_key(
        "{ name: 'HMAC', hash: 'SHA-1' }", key=f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', false, ['deriveBits'])"
    ),
    _derive_key("'FOO'", key=f"{S}.importKey('raw', {TEXT}('p'), 'PBKDF2', false, ['deriveBits'])"),
    _fn(
        f"({PBKDF2_KEY}).then((k) => {S}.deriveKey({{ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), "
        f"info: new Uint8Array(0) }}, k, {{ name: 'HMAC', hash: 'SHA-1' }}, true, ['sign']))"
    ),
    _fn(f"{S}.deriveKey({{ name: 'PBKDF2' }}, {{}}, 'FOO', true, ['sign'])"),
    _fn(f"({PBKDF2_KEY}).then((k) => {S}.deriveKey({{ name: 'PBKDF2' }}, k, 'HMAC', true))"),
]

_OBJECTS = [
    _fn(
        "[typeof CryptoKey, CryptoKey.name, CryptoKey.length, Object.getOwnPropertyNames(CryptoKey.prototype), "
        "Object.prototype.toString.call(CryptoKey.prototype)]"
    ),
    _fn("new CryptoKey()"),
    _fn("Object.getOwnPropertyDescriptor(CryptoKey.prototype, 'type').get.call({})"),
    _fn("Object.getOwnPropertyDescriptor(CryptoKey.prototype, 'usages').get.call(crypto)"),
    _fn(
        "['type', 'extractable', 'algorithm', 'usages'].map((p) => { const d = Object.getOwnPropertyDescriptor("
        "CryptoKey.prototype, p); return [typeof d.get, d.set, d.enumerable, d.configurable]; })"
    ),
    _fn(
        f"({_key()}).then((k) => [Object.keys(k), Object.getOwnPropertyNames(k), k instanceof CryptoKey, "
        "k.usages === k.usages, k.algorithm === k.algorithm, k.algorithm.hash === k.algorithm.hash, String(k), "
        "JSON.stringify(k)])"
    ),
    _fn(
        "['encrypt', 'decrypt', 'sign', 'verify', 'digest', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', "
        "'exportKey', 'wrapKey', 'unwrapKey'].map((m) => [crypto.subtle[m].name, crypto.subtle[m].length])"
    ),
    _fn(
        f"{{ const p = [{S}.importKey('raw'), {S}.sign(), {S}.deriveBits()]; p.forEach((q) => q.catch(() => {{}})); "
        "return p.map((q) => q instanceof Promise); }"
    ),
    _fn(f"{S}.encrypt()"),
]

CASES: dict[str, list[str]] = {
    "import": _IMPORT,
    "jwk": _JWK + _JWK_BYTES,
    "export": _EXPORT,
    "sign": _SIGN,
    "generate": _GENERATE,
    "derive": _DERIVE,
    "objects": _OBJECTS,
}
