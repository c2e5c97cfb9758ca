"""crypto.subtle.digest gives the digests of FIPS 180-4 for SHA-1, SHA-256, SHA-384 and SHA-512;
the SubtleCrypto methods of ciphers reject, saying what exists."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from loader_stand_in import WebIsolate, node_json, requires_node

ALGORITHMS = ("SHA-1", "SHA-256", "SHA-384", "SHA-512")
HASHLIB = {"SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}

# The examples published with FIPS 180 (NIST's example values and the NESSIE/FIPS test set).
ABC = "abc"
BITS_448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
BITS_896 = (
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
)
PUBLISHED = [
    ("SHA-1", ABC, "a9993e364706816aba3e25717850c26c9cd0d89d"),
    ("SHA-1", BITS_448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ("SHA-1", BITS_896, "a49b2446a02c645bf419f995b67091253a04a259"),
    ("SHA-256", ABC, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("SHA-256", BITS_448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ("SHA-256", BITS_896, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    (
        "SHA-384",
        ABC,
        "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
    ),
    (
        "SHA-384",
        BITS_448,
        "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
    ),
    (
        "SHA-384",
        BITS_896,
        "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
    ),
    (
        "SHA-512",
        ABC,
        "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ),
    (
        "SHA-512",
        BITS_448,
        "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
        "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445",
    ),
    (
        "SHA-512",
        BITS_896,
        "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
        "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ),
]
MILLION_A = {
    "SHA-1": "34aa973cd4c4daa4f61eeb2bdbad27316534016f",
    "SHA-256": "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    "SHA-384": "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
    "SHA-512": "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
    "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b",
}

HEX = "(b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('')"


def digests_in_isolate(web: WebIsolate, algorithm: str, messages: list[bytes]) -> list[str]:
    """Hex digests of `messages`, computed by crypto.subtle.digest in the isolate."""
    lists = json.dumps([list(m) for m in messages])
    code = f"Promise.all({lists}.map((m) => crypto.subtle.digest('{algorithm}', new Uint8Array(m)).then({HEX})))"
    result: list[str] = web.json(code)
    return result


@pytest.mark.parametrize(("algorithm", "message", "digest"), PUBLISHED, ids=lambda v: str(v)[:12])
def test_the_published_examples_give_their_published_digests(
    web: WebIsolate, algorithm: str, message: str, digest: str
) -> None:
    assert digests_in_isolate(web, algorithm, [message.encode()]) == [digest]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_million_letters_a_give_the_published_digest(web: WebIsolate, algorithm: str) -> None:
    code = f"crypto.subtle.digest('{algorithm}', new Uint8Array(1000000).fill(97)).then({HEX})"
    assert web.json(code) == MILLION_A[algorithm]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_length_from_0_to_300_bytes_matches_hashlib(web: WebIsolate, algorithm: str) -> None:
    rng = random.Random(f"digest-{algorithm}")
    messages = [bytes(rng.randrange(256) for _ in range(n)) for n in range(301)]
    expected = [hashlib.new(HASHLIB[algorithm], m).hexdigest() for m in messages]
    assert digests_in_isolate(web, algorithm, messages) == expected


def test_the_published_vectors_agree_with_hashlib() -> None:
    for algorithm, message, digest in PUBLISHED:
        assert hashlib.new(HASHLIB[algorithm], message.encode()).hexdigest() == digest
    for algorithm, digest in MILLION_A.items():
        assert hashlib.new(HASHLIB[algorithm], b"a" * 1_000_000).hexdigest() == digest


@requires_node
def test_random_messages_of_every_length_up_to_300_bytes_match_node(web: WebIsolate) -> None:
    messages = [list(random.randbytes(n)) for n in range(301)]
    code = (
        f"Promise.all({json.dumps(ALGORITHMS)}.map((a) => Promise.all({json.dumps(messages)}.map((m) => "
        f"crypto.subtle.digest(a, new Uint8Array(m)).then({HEX})))))"
    )
    assert web.json(code) == node_json(code)


def test_the_subtle_methods_without_an_algorithm_here_reject_naming_what_is_supported(web: WebIsolate) -> None:
    methods = {"encrypt": 3, "decrypt": 3, "wrapKey": 4, "unwrapKey": 7}
    code = (
        f"Promise.all(Object.entries({json.dumps(methods)}).map(([m, n]) => crypto.subtle[m](...Array(n).fill("
        "{ name: 'AES-GCM' })).then(() => 'resolved', (e) => [e instanceof DOMException, e.name, e.message])))"
    )
    for method, outcome in zip(methods, web.json(code), strict=True):
        assert outcome == [
            True,
            "NotSupportedError",
            f"crypto.subtle.{method} is not supported in this sandbox: its SubtleCrypto has digest "
            "(SHA-1, SHA-256, SHA-384, SHA-512), HMAC keys (sign, verify, generateKey, importKey, exportKey) and "
            "PBKDF2 and HKDF keys (deriveBits, deriveKey)",
        ]
