"""Node's crypto module in the sandbox: published test vectors, agreement with Python's hashlib and hmac on random
inputs in every encoding, one random stream shared with the web crypto, refusals that say what exists.

Vectors: RFC 1321 (MD5), FIPS 180-4's examples (SHA-224, SHA-512/224, SHA-512/256), RFC 2202 (HMAC-MD5), RFC 4231
(HMAC-SHA-224), RFC 6070 (PBKDF2-HMAC-SHA-1) and RFC 5869 (HKDF). The web module's tests hold the SHA-1/256/384/512
and HMAC-SHA-1/256/384/512 vectors; here they are checked once more through createHash and createHmac.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
from typing import Any

import pytest
from isolate_harness import Isolate, RunJs

from js_runtime import node_modules, web_payload

HEX = "const hex = (b) => Array.from(new Uint8Array(b.buffer || b, b.byteOffset, b.byteLength), (x) => x.toString(16)"
HEX += ".padStart(2, '0')).join('');"
ALGORITHMS = {
    "md5": "md5",
    "sha1": "sha1",
    "sha224": "sha224",
    "sha256": "sha256",
    "sha384": "sha384",
    "sha512": "sha512",
    "sha512-224": "sha512_224",
    "sha512-256": "sha512_256",
}
OUTPUT_CAP = 1 << 24


def result(run_js: RunJs, code: str) -> Any:
    outcome = run_js(code, output_cap=OUTPUT_CAP, node=True)
    assert outcome["error"] is None, outcome
    return outcome.get("result")


def hashes_in_sandbox(run_js: RunJs, algorithm: str, messages: list[bytes]) -> list[str]:
    data = json.dumps([m.hex() for m in messages])
    code = f"const c = require('crypto'); {data}.map((m) => c.createHash('{algorithm}').update(m, 'hex').digest('hex'))"
    hexes: list[str] = result(run_js, code)
    return hexes


# RFC 1321, appendix A.5.
RFC_1321 = [
    (b"", "d41d8cd98f00b204e9800998ecf8427e"),
    (b"a", "0cc175b9c0f1b6a831c399e269772661"),
    (b"abc", "900150983cd24fb0d6963f7d28e17f72"),
    (b"message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
    (b"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
    (b"1234567890" * 8, "57edf4a22be3c955ac49da2e2107b67a"),
]
_BITS_448 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
_BITS_896 = (
    b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
)
# FIPS 180-4's examples (NIST's published example values).
FIPS = [
    ("sha224", b"abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
    ("sha224", _BITS_448, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"),
    ("sha512-224", b"abc", "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"),
    ("sha512-224", _BITS_896, "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9"),
    ("sha512-256", b"abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"),
    ("sha512-256", _BITS_896, "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"),
    ("sha1", b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("sha256", _BITS_448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    (
        "sha384",
        b"abc",
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "sha512",
        _BITS_896,
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
        "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ),
]


def test_md5_gives_the_rfc_1321_test_suite(run_js: RunJs) -> None:
    assert hashes_in_sandbox(run_js, "md5", [m for m, _ in RFC_1321]) == [d for _, d in RFC_1321]


def test_md5_of_a_million_letters_a_read_in_uneven_pieces(run_js: RunJs) -> None:
    code = (
        "const h = require('crypto').createHash('md5'); let n = 0; for (let i = 1; n < 1000000; i = i * 7 % 997) "
        "{ const k = Math.min(i, 1000000 - n); h.update('a'.repeat(k)); n += k; } h.digest('hex')"
    )
    assert result(run_js, code) == "7707d6ae4e027c70eea2a935c2296f21"


@pytest.mark.parametrize(("algorithm", "message", "digest"), FIPS, ids=[f"{a}-{len(m)}" for a, m, _ in FIPS])
def test_the_fips_180_examples_give_their_published_digests(
    run_js: RunJs, algorithm: str, message: bytes, digest: str
) -> None:
    assert hashes_in_sandbox(run_js, algorithm, [message]) == [digest]


def test_the_published_vectors_agree_with_hashlib() -> None:
    for message, digest in RFC_1321:
        assert hashlib.md5(message).hexdigest() == digest
    for algorithm, message, digest in FIPS:
        assert hashlib.new(ALGORITHMS[algorithm], message).hexdigest() == digest
    for key, data, mac, _ in RFC_2202_MD5:
        assert hmac.new(key, data, "md5").hexdigest() == mac
    for key, data, mac in RFC_4231_SHA224:
        assert hmac.new(key, data, "sha224").hexdigest().startswith(mac)


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_every_length_from_0_to_300_bytes_matches_hashlib(run_js: RunJs, algorithm: str) -> None:
    rng = random.Random(f"node-{algorithm}")
    messages = [rng.randbytes(n) for n in range(301)]
    expected = [hashlib.new(ALGORITHMS[algorithm], m).hexdigest() for m in messages]
    assert hashes_in_sandbox(run_js, algorithm, messages) == expected


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_a_message_fed_in_random_pieces_with_copies_matches_hashlib(run_js: RunJs, algorithm: str) -> None:
    rng = random.Random(f"pieces-{algorithm}")
    cases = []
    for _ in range(20):
        message = rng.randbytes(rng.randrange(0, 700))
        cuts = sorted(rng.randrange(0, len(message) + 1) for _ in range(rng.randrange(0, 6)))
        cases.append((message, cuts))
    data = json.dumps([[m.hex(), cuts] for m, cuts in cases])
    # Each piece goes in as a Uint8Array view into a larger buffer; a copy taken at every cut finishes
    # the prefix hashed so far.
    code = (
        f"{HEX} const c = require('crypto'); {data}.map(([m, cuts]) => {{ const all = Uint8Array.from("
        "m.match(/../g) || [], (x) => parseInt(x, 16)); const h = c.createHash('" + algorithm + "'); "
        "const prefixes = []; let at = 0; for (const cut of cuts.concat([all.length])) { "
        "const padded = new Uint8Array(cut - at + 6); padded.set(all.subarray(at, cut), 3); "
        "h.update(padded.subarray(3, 3 + cut - at)); at = cut; prefixes.push(h.copy().digest('hex')); } "
        "return [h.digest('hex'), prefixes]; })"
    )
    expected = [
        [
            hashlib.new(ALGORITHMS[algorithm], m).hexdigest(),
            [hashlib.new(ALGORITHMS[algorithm], m[:cut]).hexdigest() for cut in [*cuts, len(m)]],
        ]
        for m, cuts in cases
    ]
    assert result(run_js, code) == expected


def _utf16_units(text: str) -> list[int]:
    raw = text.encode("utf-16-le", "surrogatepass")
    return [raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)]


def _node_utf8(text: str) -> bytes:
    """UTF-8 as Node encodes a JavaScript string: a lone surrogate becomes U+FFFD."""
    return b"".join(
        "\ufffd".encode() if 0xD800 <= ord(ch) < 0xE000 else ch.encode("utf-8", "surrogatepass") for ch in text
    )


def _random_text(rng: random.Random) -> str:
    pools = [(0x20, 0x7E), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, 0x10FFFF), (0xD800, 0xDFFF)]
    chars = []
    for _ in range(rng.randrange(0, 60)):
        low, high = rng.choice(pools)
        chars.append(chr(rng.randrange(low, high + 1)))
    # Surrogate code points from the last pool, side by side, can form pairs in JavaScript: Python keeps them
    # apart, so join them as JavaScript would read them.
    return "".join(chars).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _input_bytes(text: str, encoding: str) -> bytes:
    if encoding in {"utf8", "utf-8"}:
        return _node_utf8(text)
    if encoding in {"latin1", "binary", "ascii"}:
        return bytes(unit & 0xFF for unit in _utf16_units(text))
    return text.encode("utf-16-le", "surrogatepass")


@pytest.mark.parametrize("encoding", ["utf8", "utf-8", "latin1", "binary", "ascii", "utf16le", "ucs2", "UTF-16LE"])
def test_random_unicode_strings_hash_as_hashlib_hashes_their_encoded_bytes(run_js: RunJs, encoding: str) -> None:
    rng = random.Random(f"text-{encoding}")
    texts = [_random_text(rng) for _ in range(150)]
    code = (
        f"const c = require('crypto'); {json.dumps(texts)}.map((t, i) => c.createHash(['md5', 'sha1', 'sha256', "
        f"'sha512'][i % 4]).update(t, '{encoding}').digest('hex'))"
    )
    names = ["md5", "sha1", "sha256", "sha512"]
    expected = [
        hashlib.new(names[i % 4], _input_bytes(text, encoding.lower())).hexdigest() for i, text in enumerate(texts)
    ]
    assert result(run_js, code) == expected


def test_a_string_without_an_encoding_is_hashed_as_utf8(run_js: RunJs) -> None:
    rng = random.Random("default-encoding")
    texts = [_random_text(rng) for _ in range(100)]
    code = f"const c = require('crypto'); {json.dumps(texts)}.map((t) => c.hash('sha256', t))"
    assert result(run_js, code) == [hashlib.sha256(_node_utf8(t)).hexdigest() for t in texts]


def test_hex_and_base64_strings_are_decoded_before_hashing(run_js: RunJs) -> None:
    rng = random.Random("decoded")
    blobs = [rng.randbytes(rng.randrange(0, 80)) for _ in range(60)]
    cases = []
    for blob in blobs:
        text = blob.hex()
        cases.append([rng.choice([text, text.upper()]), "hex", blob])
        b64 = base64.b64encode(blob).decode()
        cases.append([rng.choice([b64, b64.rstrip("=")]), "base64", blob])
        url = base64.urlsafe_b64encode(blob).decode().rstrip("=")
        spaced = " \n".join(url[i : i + 7] for i in range(0, len(url), 7))
        cases.append([rng.choice([url, spaced]), rng.choice(["base64url", "base64"]), blob])
    data = json.dumps([[t, e] for t, e, _ in cases])
    code = f"const c = require('crypto'); {data}.map(([t, e]) => c.createHash('sha1').update(t, e).digest('hex'))"
    assert result(run_js, code) == [hashlib.sha1(blob).hexdigest() for _, _, blob in cases]


def _output(digest: bytes, encoding: str) -> str:
    if encoding == "hex":
        return digest.hex()
    if encoding == "base64":
        return base64.b64encode(digest).decode()
    if encoding == "base64url":
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")
    if encoding in {"latin1", "binary"}:
        return digest.decode("latin-1")
    if encoding == "ascii":
        return bytes(b & 0x7F for b in digest).decode("ascii")
    even = digest[: len(digest) // 2 * 2]
    return even.decode("utf-16-le", "surrogatepass")


@pytest.mark.parametrize("encoding", ["hex", "base64", "base64url", "latin1", "binary", "ascii", "ucs2"])
def test_digests_in_every_output_encoding_match_hashlib(run_js: RunJs, encoding: str) -> None:
    rng = random.Random(f"out-{encoding}")
    messages = [rng.randbytes(rng.randrange(0, 100)) for _ in range(40)]
    names = list(ALGORITHMS)
    data = json.dumps([m.hex() for m in messages])
    code = (
        f"const c = require('crypto'); const names = {json.dumps(names)}; {data}.map((m, i) => "
        f"Array.from(c.createHash(names[i % names.length]).update(m, 'hex').digest('{encoding}'), "
        "(ch) => ch.charCodeAt(0)))"
    )
    expected = [
        [ord(ch) for ch in _output(hashlib.new(ALGORITHMS[names[i % len(names)]], m).digest(), encoding)]
        for i, m in enumerate(messages)
    ]
    assert result(run_js, code) == expected


# RFC 2202, section 2: (key, data, HMAC-MD5, HMAC-SHA-1).
RFC_2202_MD5 = [
    (b"\x0b" * 16, b"Hi There", "9294727a3638bb1c13f48ef8158bfc9d", None),
    (b"Jefe", b"what do ya want for nothing?", "750c783e6ab0b503eaa86e310a5db738", None),
    (b"\xaa" * 16, b"\xdd" * 50, "56be34521d144c88dbb8c733f0e8b3f6", None),
    (bytes(range(1, 26)), b"\xcd" * 50, "697eaf0aca3a3aea3a75164746ffaa79", None),
    (b"\x0c" * 16, b"Test With Truncation", "56461ef2342edc00f9bab995690efd4c", None),
    (b"\xaa" * 80, b"Test Using Larger Than Block-Size Key - Hash Key First", "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd", None),
    (
        b"\xaa" * 80,
        b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
        "6f630fad67cda0ee1fb1f562db3aa53e",
        None,
    ),
]
_LONG_DATA = (
    b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be "
    b"hashed before being used by the HMAC algorithm."
)
# RFC 4231, section 4, HMAC-SHA-224 (test case 5 is truncated to 128 bits).
RFC_4231_SHA224 = [
    (b"\x0b" * 20, b"Hi There", "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"),
    (b"Jefe", b"what do ya want for nothing?", "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44"),
    (b"\xaa" * 20, b"\xdd" * 50, "7fb3cb3588c6c1f6ffa9694d7d6ad2649365b0c1f65d69d1ec8333ea"),
    (bytes(range(1, 26)), b"\xcd" * 50, "6c11506874013cac6a2abc1bb382627cec6a90d86efc012de7afec5a"),
    (b"\x0c" * 20, b"Test With Truncation", "0e2aea68a90c8d37c988bcdb9fca6fa8"),
    (
        b"\xaa" * 131,
        b"Test Using Larger Than Block-Size Key - Hash Key First",
        "95e9a0db962095adaebe9b2d6f0dbce2d499f112f2d2b7273fa6870e",
    ),
    (b"\xaa" * 131, _LONG_DATA, "3a854166ac5d9f023f54d517d0b39dbd946770db9c2b95c9f6f565d1"),
]


def hmacs_in_sandbox(run_js: RunJs, cases: list[tuple[str, bytes, bytes]]) -> list[str]:
    data = json.dumps([[a, k.hex(), m.hex()] for a, k, m in cases])
    code = (
        f"const c = require('crypto'); const bytes = (h) => Uint8Array.from(h.match(/../g) || [], (x) => "
        f"parseInt(x, 16)); {data}.map(([a, k, m]) => c.createHmac(a, bytes(k)).update(m, 'hex').digest('hex'))"
    )
    macs: list[str] = result(run_js, code)
    return macs


def test_hmac_md5_gives_the_rfc_2202_values(run_js: RunJs) -> None:
    macs = hmacs_in_sandbox(run_js, [("md5", key, data) for key, data, _, _ in RFC_2202_MD5])
    assert macs == [mac for _, _, mac, _ in RFC_2202_MD5]


def test_hmac_sha224_gives_the_rfc_4231_values(run_js: RunJs) -> None:
    macs = hmacs_in_sandbox(run_js, [("sha224", key, data) for key, data, _ in RFC_4231_SHA224])
    assert [mac[: len(want)] for mac, (_, _, want) in zip(macs, RFC_4231_SHA224, strict=True)] == [
        want for _, _, want in RFC_4231_SHA224
    ]


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_random_keys_and_messages_match_python_hmac(run_js: RunJs, algorithm: str) -> None:
    rng = random.Random(f"node-hmac-{algorithm}")
    cases = [
        (algorithm, rng.randbytes(rng.choice([0, 1, 16, 63, 64, 65, 127, 128, 129, 250])), rng.randbytes(n))
        for n in range(0, 300, 7)
    ]
    expected = [hmac.new(k, m, ALGORITHMS[algorithm]).hexdigest() for _, k, m in cases]
    assert hmacs_in_sandbox(run_js, cases) == expected


def test_string_keys_are_utf8(run_js: RunJs) -> None:
    rng = random.Random("string-keys")
    keys = [_random_text(rng) for _ in range(50)]
    code = (
        f"const c = require('crypto'); {json.dumps(keys)}.map((k) => c.createHmac('sha256', k).update('m')"
        ".digest('hex'))"
    )
    assert result(run_js, code) == [hmac.new(_node_utf8(k), b"m", "sha256").hexdigest() for k in keys]


# RFC 6070 (without the 16777216-iteration case): (password, salt, iterations, length, DK).
RFC_6070 = [
    ("password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"),
    ("password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
    ("password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"),
    (
        "passwordPASSWORDpassword",
        "saltSALTsaltSALTsaltSALTsaltSALTsalt",
        4096,
        25,
        "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038",
    ),
    ("pass\0word", "sa\0lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"),
]


def test_pbkdf2_sync_gives_the_rfc_6070_values(run_js: RunJs) -> None:
    code = (
        f"{HEX} const c = require('crypto'); {json.dumps([list(v[:4]) for v in RFC_6070])}.map(([p, s, n, k]) => "
        "hex(c.pbkdf2Sync(p, s, n, k, 'sha1')))"
    )
    assert result(run_js, code) == [dk for *_, dk in RFC_6070]


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_pbkdf2_matches_hashlib_for_random_inputs(run_js: RunJs, algorithm: str) -> None:
    rng = random.Random(f"node-pbkdf2-{algorithm}")
    cases = [
        (
            rng.randbytes(rng.randrange(0, 150)),
            rng.randbytes(rng.randrange(0, 40)),
            rng.randrange(1, 40),
            rng.randrange(1, 130),
        )
        for _ in range(20)
    ]
    data = json.dumps([[p.hex(), s.hex(), n, k] for p, s, n, k in cases])
    code = (
        f"{HEX} const c = require('crypto'); const bytes = (h) => Uint8Array.from(h.match(/../g) || [], (x) => "
        f"parseInt(x, 16)); {data}.map(([p, s, n, k]) => hex(c.pbkdf2Sync(bytes(p), bytes(s), n, k, '{algorithm}')))"
    )
    expected = [hashlib.pbkdf2_hmac(ALGORITHMS[algorithm], p, s, n, k).hex() for p, s, n, k in cases]
    assert result(run_js, code) == expected


def python_hkdf(algorithm: str, ikm: bytes, salt: bytes, info: bytes, length: int) -> str:
    name = ALGORITHMS[algorithm]
    prk = hmac.new(salt or bytes(hashlib.new(name).digest_size), ikm, name).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), name).digest()
        out += block
        counter += 1
    return out[:length].hex()


# RFC 5869, appendix A, test cases 1 and 4.
RFC_5869 = [
    (
        "sha256",
        b"\x0b" * 22,
        bytes(range(13)),
        bytes(range(0xF0, 0xFA)),
        42,
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
    ),
    (
        "sha1",
        b"\x0b" * 11,
        bytes(range(13)),
        bytes(range(0xF0, 0xFA)),
        42,
        "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896",
    ),
]


def hkdfs_in_sandbox(run_js: RunJs, cases: list[tuple[str, bytes, bytes, bytes, int]]) -> list[str]:
    data = json.dumps([[a, k.hex(), s.hex(), i.hex(), n] for a, k, s, i, n in cases])
    code = (
        f"{HEX} const c = require('crypto'); const bytes = (h) => Uint8Array.from(h.match(/../g) || [], (x) => "
        f"parseInt(x, 16)); {data}.map(([a, k, s, i, n]) => hex(new Uint8Array(c.hkdfSync(a, bytes(k), bytes(s), "
        "bytes(i), n))))"
    )
    okms: list[str] = result(run_js, code)
    return okms


def test_hkdf_sync_gives_the_rfc_5869_values(run_js: RunJs) -> None:
    assert hkdfs_in_sandbox(run_js, [case[:5] for case in RFC_5869]) == [case[5] for case in RFC_5869]


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_hkdf_matches_an_rfc_5869_reference_for_random_inputs(run_js: RunJs, algorithm: str) -> None:
    rng = random.Random(f"node-hkdf-{algorithm}")
    size = hashlib.new(ALGORITHMS[algorithm]).digest_size
    cases = [
        (
            algorithm,
            rng.randbytes(rng.randrange(0, 90)),
            rng.randbytes(rng.randrange(0, 150)),
            rng.randbytes(rng.randrange(0, 80)),
            rng.randrange(0, 255 * size + 1),
        )
        for _ in range(12)
    ]
    assert hkdfs_in_sandbox(run_js, cases) == [python_hkdf(*case) for case in cases]


def run_seeded(code: str, seed: bytes) -> Any:
    """The result of `code` in a run whose options carry `seed`, as the worker sends fresh entropy."""
    isolate = Isolate()
    try:
        options = {
            "outputCap": OUTPUT_CAP,
            "modules": web_payload(),
            "nodeModules": {module.id: module.source for module in node_modules().values()},
            "seed": seed.hex(),
        }
        outcome = json.loads(isolate.api["run"](code, "", json.dumps(options)))
    finally:
        isolate.close()
    assert outcome["error"] is None, outcome
    return outcome["result"]


# RFC 8439 appendix A.1, test vectors 1 and 2: the keystream of the all-zero key and nonce, blocks 0 and 1.
ZERO_KEY_STREAM = bytes.fromhex(
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
)


def test_random_bytes_continue_the_web_crypto_stream_seeded_by_the_host() -> None:
    code = (
        f"{HEX} const c = require('crypto'); const a = crypto.getRandomValues(new Uint8Array(5)); const b = "
        "c.randomBytes(11); const d = c.randomFillSync(new Uint8Array(20), 4, 8); const e = "
        "c.getRandomValues(new Uint8Array(3)); [hex(a), hex(b), hex(d.subarray(4, 12)), hex(e)]"
    )
    stream = ZERO_KEY_STREAM
    assert run_seeded(code, bytes(32)) == [
        stream[:5].hex(),
        stream[5:16].hex(),
        stream[16:24].hex(),
        stream[24:27].hex(),
    ]


def test_random_uuids_come_from_the_same_stream() -> None:
    uuid = run_seeded("require('crypto').randomUUID()", bytes(32))
    raw = bytearray(ZERO_KEY_STREAM[:16])
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    text = raw.hex()
    assert uuid == f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def test_each_seed_gives_other_random_bytes() -> None:
    code = f"{HEX} hex(require('crypto').randomBytes(16))"
    assert run_seeded(code, bytes(32)) == ZERO_KEY_STREAM[:16].hex()
    assert run_seeded(code, bytes([1] * 32)) != ZERO_KEY_STREAM[:16].hex()


def test_random_int_takes_48_bits_of_the_stream_and_draws_again_above_the_last_whole_range() -> None:
    # 2 ** 48 / 3 leaves a remainder of 1: only the 48-bit value 2 ** 48 - 1 is drawn again.
    draws = run_seeded(
        "const c = require('crypto'); Array.from({ length: 10 }, () => c.randomInt(5, 5 + 3))", bytes(32)
    )
    values = [int.from_bytes(ZERO_KEY_STREAM[i : i + 6], "big") for i in range(0, 60, 6)]
    assert draws == [5 + v % 3 for v in values]


def test_random_int_is_uniform_over_its_range(run_js: RunJs) -> None:
    counts = result(
        run_js,
        "const c = require('crypto'); const n = Array(10).fill(0); for (let i = 0; i < 20000; i++) "
        "n[c.randomInt(-3, 7) + 3]++; n",
    )
    # 2000 expected per value; the bounds are more than 7 standard deviations away.
    assert min(counts) > 1700
    assert max(counts) < 2300


def test_results_are_buffers_when_the_buffer_module_is_there_and_uint8arrays_before(run_js: RunJs) -> None:
    code = (
        "const c = require('crypto'); let B; try { B = require('buffer').Buffer; } catch { B = undefined; } "
        "const values = [c.createHash('sha256').update('x').digest(), c.createHmac('md5', 'k').digest(), "
        "c.randomBytes(3), c.pbkdf2Sync('p', 's', 1, 8, 'sha1'), c.hash('sha1', 'x', 'buffer')]; "
        "[B === undefined, values.map((v) => B === undefined ? Object.getPrototypeOf(v) === Uint8Array.prototype : "
        "B.isBuffer(v)), values.map((v) => v.length)]"
    )
    without_buffer, kinds, lengths = result(run_js, code)
    assert without_buffer == ("buffer" not in node_modules())
    assert kinds == [True] * 5
    assert lengths == [32, 16, 3, 8, 20]


REFUSED = [
    "checkPrime",
    "checkPrimeSync",
    "createCipheriv",
    "createDecipheriv",
    "createDiffieHellman",
    "createDiffieHellmanGroup",
    "createECDH",
    "createPrivateKey",
    "createPublicKey",
    "createSecretKey",
    "createSign",
    "createVerify",
    "diffieHellman",
    "generatePrime",
    "generatePrimeSync",
    "getDiffieHellman",
    "generateKeyPair",
    "generateKeyPairSync",
    "generateKey",
    "generateKeySync",
    "privateDecrypt",
    "privateEncrypt",
    "publicDecrypt",
    "publicEncrypt",
    "scrypt",
    "scryptSync",
    "sign",
    "setEngine",
    "setFips",
    "verify",
    "Certificate",
    "Cipher",
    "Cipheriv",
    "Decipher",
    "Decipheriv",
    "DiffieHellman",
    "DiffieHellmanGroup",
    "ECDH",
    "KeyObject",
    "Sign",
    "Verify",
    "X509Certificate",
    "secureHeapUsed",
]


def test_ciphers_signatures_and_key_pairs_are_refused_saying_what_exists(run_js: RunJs) -> None:
    code = (
        f"const c = require('crypto'); {json.dumps(REFUSED)}.map((name) => {{ const out = []; "
        "for (const call of [() => c[name]('aes-256-gcm', new Uint8Array(32)), () => new c[name]()]) { "
        "try { call(); out.push('returned'); } catch (e) { out.push([e.constructor.name, e.code, e.message]); } } "
        "return out; })"
    )
    for name, outcomes in zip(REFUSED, result(run_js, code), strict=True):
        for kind, error_code, message in outcomes:
            assert (kind, error_code) == ("Error", "ERR_SANDBOX_UNAVAILABLE"), name
            assert message.startswith(f"crypto.{name} is not available in this sandbox: "), message
            for offered in ("createHash", "createHmac", "pbkdf2", "randomBytes", "timingSafeEqual", "crypto.subtle"):
                assert offered in message


def test_unsupported_digests_that_node_has_say_which_ones_exist(run_js: RunJs) -> None:
    code = (
        "const c = require('crypto'); ['sha3-256', 'blake2b512', 'ripemd160', 'nope'].map((a) => { "
        "try { c.createHash(a); return 'made'; } catch (e) { return e.message; } })"
    )
    assert result(run_js, code) == [
        f"Digest method not supported: {name} is not in this sandbox, which has md5, sha1, sha224, sha256, sha384, "
        "sha512, sha512-224, sha512-256"
        for name in ("sha3-256", "blake2b512", "ripemd160")
    ] + ["Digest method not supported"]


def test_hashing_works_after_the_code_replaced_the_built_ins_the_module_uses(run_js: RunJs) -> None:
    # Both crypto modules are compiled by the require; what the code changes later does not reach them.
    code = (
        "const c = require('crypto'); for (const [proto, names] of [[Array.prototype, ['push', 'map', 'join', "
        "'slice', 'includes', 'indexOf']], [String.prototype, ['split', 'slice', 'toLowerCase', 'indexOf', "
        "'charCodeAt', 'toUpperCase']], [Object.getPrototypeOf(Uint8Array.prototype), ['set', 'slice', 'subarray', "
        "'fill']]]) for (const n of names) proto[n] = () => { throw new Error('replaced ' + n); }; "
        "for (const k of ['buffer', 'byteOffset', 'byteLength', 'length']) Object.defineProperty("
        "Object.getPrototypeOf(Uint8Array.prototype), k, { get() { throw new Error('replaced ' + k); } }); "
        "Function.prototype.call = () => { throw new Error('replaced call'); }; Reflect.apply = null; "
        "String.fromCharCode = null; "
        "const k = c.pbkdf2Sync('pw', 'salt', 2, 16, 'sha256'); "
        "[c.createHash('MD5').update('h\\u00e9').digest('hex'), c.createHmac('sha512', 'key').update('6d', 'hex')"
        ".digest('base64'), c.hash('sha1', 'abc', 'base64url'), c.timingSafeEqual(k, k), c.randomBytes(4) !== null, "
        "c.createHash('sha256').update(new Uint8Array([1, 2, 3])).digest('latin1') === c.createHash('sha256')"
        ".update('\\x01\\x02\\x03', 'latin1').digest('binary')]"
    )
    assert result(run_js, code) == [
        hashlib.md5("hé".encode()).hexdigest(),
        base64.b64encode(hmac.new(b"key", b"m", "sha512").digest()).decode(),
        base64.urlsafe_b64encode(hashlib.sha1(b"abc").digest()).decode().rstrip("="),
        True,
        True,
        True,
    ]


def test_callbacks_are_called_after_the_current_code_with_no_error(run_js: RunJs) -> None:
    code = (
        f"{HEX} const c = require('crypto'); const seen = []; "
        "c.pbkdf2('password', 'salt', 1, 20, 'sha1', (e, k) => seen.push(['pbkdf2', e, hex(k)])); "
        "c.hkdf('sha256', 'k', 's', 'i', 4, (e, k) => seen.push(['hkdf', e, k.byteLength])); "
        "c.randomBytes(3, (e, b) => seen.push(['randomBytes', e, b.length])); "
        "c.randomInt(2, (e, n) => seen.push(['randomInt', e, n < 2])); "
        "c.randomFill(new Uint8Array(2), (e, b) => seen.push(['randomFill', e, b.length])); "
        "seen.push('sync end'); await new Promise((r) => setTimeout(r, 10)); seen"
    )
    assert result(run_js, code) == [
        "sync end",
        ["pbkdf2", None, "0c60c80f961f0e71f3a9b524af6012062fe037a6"],
        ["hkdf", None, 4],
        ["randomBytes", None, 3],
        ["randomInt", None, True],
        ["randomFill", None, 2],
    ]
