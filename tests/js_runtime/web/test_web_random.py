"""crypto's randomness: a ChaCha20 stream keyed by host.seed, filling any integer typed array."""

from __future__ import annotations

import json

from loader_stand_in import WebIsolate, module_source
from web_harness import shared_require

# RFC 8439 appendix A.1, test vectors 1 and 2: the keystream of the all-zero key and nonce
# for block counters 0 and 1.
ZERO_KEY_BLOCKS = (
    "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
    "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
    "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
    "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"
)
HEX = "Array.from(crypto.getRandomValues(new Uint8Array({n})), (x) => x.toString(16).padStart(2, '0')).join('')"


def random_hex(seed: list[int], sizes: list[int]) -> str:
    """The concatenated bytes of getRandomValues calls of these sizes, in a fresh isolate."""
    web = WebIsolate(seed=seed)
    try:
        return "".join(web.eval(HEX.format(n=n)) for n in sizes)
    finally:
        web.close()


def test_a_zero_seed_gives_the_rfc_8439_chacha20_keystream() -> None:
    assert random_hex([0] * 32, [128]) == ZERO_KEY_BLOCKS


def test_calls_continue_one_stream_across_block_boundaries() -> None:
    seed = list(range(32))
    assert random_hex(seed, [1, 63, 2, 62, 64, 7]) == random_hex(seed, [199])


def test_each_seed_byte_changes_the_stream() -> None:
    base = random_hex([7] * 32, [32])
    for position in range(32):
        seed = [7] * 32
        seed[position] ^= 1
        assert random_hex(seed, [32]) != base


def test_typed_arrays_of_every_integer_type_get_the_stream_bytes_in_place(web: WebIsolate) -> None:
    code = (
        "JSON.stringify(['Int8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint32Array', 'BigUint64Array'].map((t) => {"
        " const buffer = new ArrayBuffer(24); const view = new globalThis[t](buffer, 8, 8 / globalThis[t]."
        "BYTES_PER_ELEMENT); const same = crypto.getRandomValues(view) === view; const b = new Uint8Array(buffer); "
        "return [same, Array.from(b.subarray(0, 8)).concat(Array.from(b.subarray(16))).every((x) => x === 0), "
        "Array.from(b.subarray(8, 16))]; }))"
    )
    results = json.loads(web.eval(code))
    assert all(same and untouched for same, untouched, _ in results)
    stream = bytes.fromhex(random_hex(list(range(1, 33)), [40]))
    assert [bytes(chunk) for _, _, chunk in results] == [stream[i : i + 8] for i in range(0, 40, 8)]


def test_byte_values_are_spread_evenly_over_64_kib(web: WebIsolate) -> None:
    counts = json.loads(
        web.eval(
            "(() => { const c = new Array(256).fill(0); for (const b of crypto.getRandomValues(new Uint8Array(65536))) "
            "c[b]++; return JSON.stringify(c); })()"
        )
    )
    # 256 expected per value; the bounds are over 9 standard deviations away.
    assert min(counts) > 100
    assert max(counts) < 410


def test_random_uuids_are_version_4_variant_1_and_distinct(web: WebIsolate) -> None:
    uuids = json.loads(web.eval("JSON.stringify(Array.from({ length: 2000 }, () => crypto.randomUUID()))"))
    assert len(set(uuids)) == 2000
    for uuid in uuids:
        assert len(uuid) == 36
        assert [len(part) for part in uuid.split("-")] == [8, 4, 4, 4, 12]
        assert uuid[14] == "4"
        assert uuid[19] in "89ab"
        int(uuid.replace("-", ""), 16)


def test_the_uuid_is_the_stream_bytes_with_version_and_variant_set() -> None:
    web = WebIsolate(seed=[0] * 32)
    try:
        uuid = web.eval("crypto.randomUUID()")
    finally:
        web.close()
    raw = bytearray(bytes.fromhex(ZERO_KEY_BLOCKS[:32]))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    text = raw.hex()
    assert uuid == f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def test_the_module_keeps_no_reference_to_the_host_seed(web: WebIsolate) -> None:
    # The seed array belongs to the host object: zeroing it after first use does not change the stream.
    code = (
        "(() => { const require = %s; "
        "const host = { seed: new Uint8Array(32).fill(3), now: () => 0, global: () => undefined, require }; "
        "const make = (0, eval)(%s); const first = make(host).crypto; host.seed.fill(0); "
        "const a = Array.from(first.getRandomValues(new Uint8Array(16))); "
        "const second = make({ seed: new Uint8Array(32).fill(3), now: () => 0, global: () => undefined, require })"
        ".crypto; "
        "return JSON.stringify([a, Array.from(second.getRandomValues(new Uint8Array(16)))]); })()"
    )
    a, b = json.loads(web.eval(code % (shared_require(), json.dumps(module_source("crypto")))))
    assert a == b
