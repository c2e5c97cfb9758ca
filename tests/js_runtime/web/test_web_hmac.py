"""crypto.subtle's HMAC, PBKDF2 and HKDF give the published test vectors and agree with Python's hmac and hashlib.

Vectors: RFC 2202 (HMAC-SHA-1), RFC 4231 (HMAC-SHA-256/384/512), RFC 6070 (PBKDF2-HMAC-SHA-1) and RFC 5869
(HKDF with SHA-256 and SHA-1). Generated keys come from the module's ChaCha20 stream (RFC 8439).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random

import pytest
from loader_stand_in import WebIsolate

HEX = "(b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('')"
BYTES = "(h) => Uint8Array.from(h.match(/../g) || [], (x) => parseInt(x, 16))"
HASHLIB = {"SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}


def sign_in_isolate(web: WebIsolate, cases: list[tuple[str, bytes, bytes]]) -> list[str]:
    """Hex HMACs of (hash, key, message) cases, through importKey('raw') and sign."""
    data = json.dumps([[h, key.hex(), message.hex()] for h, key, message in cases])
    code = (
        f"Promise.all({data}.map(async ([hash, key, message]) => {{ const toBytes = {BYTES}; "
        "const k = await crypto.subtle.importKey('raw', toBytes(key), { name: 'HMAC', hash }, false, ['sign']); "
        f"return ({HEX})(await crypto.subtle.sign('HMAC', k, toBytes(message))); }}))"
    )
    result: list[str] = web.json(code)
    return result


# RFC 2202, section 3: (key, data, HMAC-SHA-1).
RFC_2202 = [
    (b"\x0b" * 20, b"Hi There", "b617318655057264e28bc0b6fb378c8ef146be00"),
    (b"Jefe", b"what do ya want for nothing?", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
    (b"\xaa" * 20, b"\xdd" * 50, "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
    (bytes(range(1, 26)), b"\xcd" * 50, "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
    (b"\x0c" * 20, b"Test With Truncation", "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
    (
        b"\xaa" * 80,
        b"Test Using Larger Than Block-Size Key - Hash Key First",
        "aa4ae5e15272d00e95705637ce8a3b55ed402112",
    ),
    (
        b"\xaa" * 80,
        b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
        "e8e99d0f45237d786d6bbaa7965c7808bbff1a91",
    ),
]

_LONG_KEY_TEXT = (
    b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
    b"hashed before being used by the HMAC algorithm."
)
# RFC 4231, section 4: (key, data, {hash: HMAC}). Test case 5's HMACs are the first 128 bits only.
RFC_4231 = [
    (
        b"\x0b" * 20,
        b"Hi There",
        {
            "SHA-256": "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            "SHA-384": "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec6"
            "82aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
            "SHA-512": "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
            "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
        },
    ),
    (
        b"Jefe",
        b"what do ya want for nothing?",
        {
            "SHA-256": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "SHA-384": "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47"
            "e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            "SHA-512": "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
        },
    ),
    (
        b"\xaa" * 20,
        b"\xdd" * 50,
        {
            "SHA-256": "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
            "SHA-384": "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9feb"
            "e83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
            "SHA-512": "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
            "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
        },
    ),
    (
        bytes(range(1, 26)),
        b"\xcd" * 50,
        {
            "SHA-256": "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            "SHA-384": "3e8a69b7783c25851933ab6290af6ca77a9981480850009c"
            "c5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
            "SHA-512": "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
            "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
        },
    ),
    (
        b"\x0c" * 20,
        b"Test With Truncation",
        {
            "SHA-256": "a3b6167473100ee06e0c796c2955552b",
            "SHA-384": "3abf34c3503b2a23a46efc619baef897",
            "SHA-512": "415fad6271580a531d4179bc891d87a6",
        },
    ),
    (
        b"\xaa" * 131,
        b"Test Using Larger Than Block-Size Key - Hash Key First",
        {
            "SHA-256": "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            "SHA-384": "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f"
            "3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            "SHA-512": "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
            "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
        },
    ),
    (
        b"\xaa" * 131,
        _LONG_KEY_TEXT,
        {
            "SHA-256": "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
            "SHA-384": "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9a"
            "dccebb82461e99c5a678cc31e799176d3860e6110c46523e",
            "SHA-512": "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
            "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
        },
    ),
]


def test_hmac_sha1_gives_the_rfc_2202_values(web: WebIsolate) -> None:
    assert sign_in_isolate(web, [("SHA-1", key, data) for key, data, _ in RFC_2202]) == [m for _, _, m in RFC_2202]


@pytest.mark.parametrize("hash_name", ["SHA-256", "SHA-384", "SHA-512"])
def test_hmac_sha2_gives_the_rfc_4231_values(web: WebIsolate, hash_name: str) -> None:
    macs = sign_in_isolate(web, [(hash_name, key, data) for key, data, _ in RFC_4231])
    expected = [values[hash_name] for _, _, values in RFC_4231]
    assert [mac[: len(want)] for mac, want in zip(macs, expected, strict=True)] == expected
    assert [len(mac) for mac in macs] == [len(hashlib.new(HASHLIB[hash_name]).hexdigest())] * len(RFC_4231)


def test_the_rfc_vectors_agree_with_python_hmac() -> None:
    for key, data, mac in RFC_2202:
        assert hmac.new(key, data, "sha1").hexdigest() == mac
    for key, data, values in RFC_4231:
        for hash_name, mac in values.items():
            assert hmac.new(key, data, HASHLIB[hash_name]).hexdigest().startswith(mac)


@pytest.mark.parametrize("hash_name", list(HASHLIB))
def test_random_keys_and_messages_match_python_hmac(web: WebIsolate, hash_name: str) -> None:
    rng = random.Random(f"hmac-{hash_name}")
    # Keys around the block size (64 or 128 bytes) and messages across block boundaries.
    cases = [
        (hash_name, rng.randbytes(rng.choice([1, 20, 63, 64, 65, 127, 128, 129, 300])), rng.randbytes(n))
        for n in range(0, 400, 3)
    ]
    expected = [hmac.new(key, message, HASHLIB[hash_name]).hexdigest() for _, key, message in cases]
    assert sign_in_isolate(web, cases) == expected


def test_verify_accepts_the_signature_and_rejects_any_changed_byte(web: WebIsolate) -> None:
    code = (
        "(async () => { const k = await crypto.subtle.importKey('raw', new Uint8Array([1, 2, 3]), "
        "{ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']); const m = new Uint8Array([9, 9]); "
        "const s = new Uint8Array(await crypto.subtle.sign('HMAC', k, m)); const out = "
        "[await crypto.subtle.verify('HMAC', k, s, m)]; for (let i = 0; i < s.length; i++) { const t = s.slice(); "
        "t[i] ^= 1; out.push(await crypto.subtle.verify('HMAC', k, t, m)); } return out; })()"
    )
    assert web.json(code) == [True] + [False] * 32


def pbkdf2_in_isolate(web: WebIsolate, cases: list[tuple[str, bytes, bytes, int, int]]) -> list[str]:
    data = json.dumps([[h, p.hex(), s.hex(), c, n] for h, p, s, c, n in cases])
    code = (
        f"Promise.all({data}.map(async ([hash, password, salt, iterations, length]) => {{ const toBytes = {BYTES}; "
        "const k = await crypto.subtle.importKey('raw', toBytes(password), 'PBKDF2', false, ['deriveBits']); "
        "return (" + HEX + ")(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash, salt: toBytes(salt), "
        "iterations }, k, length * 8)); }))"
    )
    result: list[str] = web.json(code)
    return result


# RFC 6070, section 2 (the 16777216-iteration case left out): (password, salt, iterations, length, DK).
RFC_6070 = [
    (b"password", b"salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
    (b"password", b"salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
    (b"password", b"salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
    (
        b"passwordPASSWORDpassword",
        b"saltSALTsaltSALTsaltSALTsaltSALTsalt",
        4096,
        25,
        "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038",
    ),
    (b"pass\x00word", b"sa\x00lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
]


def test_pbkdf2_sha1_gives_the_rfc_6070_values(web: WebIsolate) -> None:
    cases = [("SHA-1", p, s, c, n) for p, s, c, n, _ in RFC_6070]
    assert pbkdf2_in_isolate(web, cases) == [dk for *_, dk in RFC_6070]


@pytest.mark.parametrize("hash_name", list(HASHLIB))
def test_pbkdf2_matches_hashlib_for_random_passwords_salts_and_lengths(web: WebIsolate, hash_name: str) -> None:
    rng = random.Random(f"pbkdf2-{hash_name}")
    cases = [
        (
            hash_name,
            rng.randbytes(rng.randrange(0, 200)),
            rng.randbytes(rng.randrange(0, 40)),
            rng.randrange(1, 60),
            rng.randrange(1, 150),
        )
        for _ in range(30)
    ]
    expected = [hashlib.pbkdf2_hmac(HASHLIB[h], p, s, c, n).hex() for h, p, s, c, n in cases]
    assert pbkdf2_in_isolate(web, cases) == expected


def hkdf_in_isolate(web: WebIsolate, cases: list[tuple[str, bytes, bytes, bytes, int]]) -> list[str]:
    data = json.dumps([[h, k.hex(), s.hex(), i.hex(), n] for h, k, s, i, n in cases])
    code = (
        f"Promise.all({data}.map(async ([hash, ikm, salt, info, length]) => {{ const toBytes = {BYTES}; "
        "const k = await crypto.subtle.importKey('raw', toBytes(ikm), 'HKDF', false, ['deriveBits']); "
        "return (" + HEX + ")(await crypto.subtle.deriveBits({ name: 'HKDF', hash, salt: toBytes(salt), "
        "info: toBytes(info) }, k, length * 8)); }))"
    )
    result: list[str] = web.json(code)
    return result


def python_hkdf(hash_name: str, ikm: bytes, salt: bytes, info: bytes, length: int) -> str:
    algorithm = HASHLIB[hash_name]
    prk = hmac.new(salt or bytes(hashlib.new(algorithm).digest_size), ikm, algorithm).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), algorithm).digest()
        out += block
        counter += 1
    return out[:length].hex()


# RFC 5869, appendix A, test cases 1, 3, 4 and 7: (hash, IKM, salt, info, L, OKM).
RFC_5869 = [
    (
        "SHA-256",
        b"\x0b" * 22,
        bytes(range(13)),
        bytes(range(0xF0, 0xFA)),
        42,
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    ),
    (
        "SHA-256",
        b"\x0b" * 22,
        b"",
        b"",
        42,
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
    ),
    (
        "SHA-1",
        b"\x0b" * 11,
        bytes(range(13)),
        bytes(range(0xF0, 0xFA)),
        42,
        "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896",
    ),
    (
        "SHA-1",
        b"\x0c" * 22,
        b"",
        b"",
        42,
        "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5673a081d70cce7acfc48",
    ),
]


def test_hkdf_gives_the_rfc_5869_values(web: WebIsolate) -> None:
    cases = [(h, k, s, i, n) for h, k, s, i, n, _ in RFC_5869]
    assert hkdf_in_isolate(web, cases) == [okm for *_, okm in RFC_5869]
    assert [python_hkdf(*case) for case in cases] == [okm for *_, okm in RFC_5869]


@pytest.mark.parametrize("hash_name", list(HASHLIB))
def test_hkdf_matches_an_rfc_5869_reference_for_random_inputs(web: WebIsolate, hash_name: str) -> None:
    rng = random.Random(f"hkdf-{hash_name}")
    cases = [
        (
            hash_name,
            rng.randbytes(rng.randrange(0, 100)),
            rng.randbytes(rng.randrange(0, 150)),
            rng.randbytes(rng.randrange(0, 80)),
            rng.randrange(0, 300),
        )
        for _ in range(30)
    ]
    assert hkdf_in_isolate(web, cases) == [python_hkdf(*case) for case in cases]


def test_generated_hmac_keys_are_the_next_bytes_of_the_chacha20_stream() -> None:
    # RFC 8439 appendix A.1: the keystream of the all-zero key and nonce, blocks 0 and 1.
    zero_key_stream = (
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
        "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    )
    web = WebIsolate(seed=[0] * 32)
    try:
        code = (
            "(async () => { crypto.getRandomValues(new Uint8Array(16)); const k = await crypto.subtle.generateKey("
            "{ name: 'HMAC', hash: 'SHA-256', length: 256 }, true, ['sign']); "
            f"return ({HEX})(await crypto.subtle.exportKey('raw', k)); }})()"
        )
        assert web.json(code) == zero_key_stream[32:96]
    finally:
        web.close()


def test_a_key_derived_with_pbkdf2_signs_as_a_key_imported_from_the_same_bits(web: WebIsolate) -> None:
    code = (
        "(async () => { const s = crypto.subtle; const base = await s.importKey('raw', new Uint8Array([1, 2]), "
        "'PBKDF2', false, ['deriveKey', 'deriveBits']); const p = { name: 'PBKDF2', salt: new Uint8Array(4), "
        "iterations: 10, hash: 'SHA-384' }; const key = await s.deriveKey(p, base, { name: 'HMAC', hash: 'SHA-256' }, "
        "false, ['sign']); const bits = await s.deriveBits(p, base, 512); const same = await s.importKey('raw', bits, "
        "{ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); const m = new Uint8Array([7]); "
        f"return [({HEX})(await s.sign('HMAC', key, m)), ({HEX})(await s.sign('HMAC', same, m)), "
        "key.algorithm.length]; })()"
    )
    first, second, length = web.json(code)
    assert first == second
    derived = hashlib.pbkdf2_hmac("sha384", b"\x01\x02", bytes(4), 10, 64)
    assert first == hmac.new(derived, b"\x07", "sha256").hexdigest()
    assert length == 512


def test_keys_work_after_the_code_replaced_the_built_ins_the_module_uses(web: WebIsolate) -> None:
    # The module captured its built-ins when it was compiled (here by the first read of crypto.subtle).
    # Array.prototype.push (and its indices) stay: mini-racer itself calls push to await the promise.
    web.eval(
        "crypto.subtle; for (const [proto, names] of [[Array.prototype, ['map', 'join', 'slice', 'includes', "
        "'indexOf']], [String.prototype, ['split', 'slice', 'toUpperCase', 'indexOf', 'charCodeAt']], "
        "[Object.getPrototypeOf(Uint8Array.prototype), ['set', 'slice', 'subarray', 'fill']]]) for (const n of names) "
        "proto[n] = () => { throw new Error('replaced ' + n); }; "
        "for (const k of ['buffer', 'byteOffset', 'byteLength', 'length']) Object.defineProperty(Object.getPrototypeOf("
        "Uint8Array.prototype), k, { get() { throw new Error('replaced ' + k); } }); "
        "Function.prototype.call = () => { throw new Error('replaced call'); }; Reflect.apply = null; 0"
    )
    code = (
        "(async () => { const s = crypto.subtle; const hex = (b) => { const a = Array.from(new Uint8Array(b)); "
        "let t = ''; for (let i = 0; i < a.length; i++) t += (a[i] < 16 ? '0' : '') + a[i].toString(16); return t; }; "
        "const k = await s.importKey('raw', new Uint8Array([106, 101, 102, 101]), { name: 'hmac', hash: 'sha-256' }, "
        "true, { [Symbol.iterator]: function* () { yield 'sign'; } }); const m = new Uint8Array([119, 104, 97, 116]); "
        "const jwk = await s.exportKey('jwk', k); const pb = await s.importKey('raw', m, 'PBKDF2', false, "
        "{ [Symbol.iterator]: function* () { yield 'deriveBits'; } }); const bits = await s.deriveBits("
        "{ name: 'PBKDF2', salt: m, iterations: 3, hash: 'SHA-1' }, pb, 160); "
        "return hex(await s.sign('HMAC', k, m)) + ' ' + jwk.k + ' ' + jwk.alg + ' ' + hex(bits) + ' ' + "
        "hex(await s.digest('SHA-512', m)) + ' ' + crypto.getRandomValues(new Uint8Array(3)).constructor.name; })()"
    )
    expected = " ".join(
        [
            hmac.new(b"jefe", b"what", "sha256").hexdigest(),
            "amVmZQ",
            "HS256",
            hashlib.pbkdf2_hmac("sha1", b"what", b"what", 3, 20).hex(),
            hashlib.sha512(b"what").hexdigest(),
            "Uint8Array",
        ]
    )
    assert web.eval(code) == expected
