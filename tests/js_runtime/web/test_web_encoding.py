"""TextEncoder/TextDecoder agree with the Encoding Standard on arbitrary input: Python's
codecs replace invalid UTF-8 and UTF-16 the same way (one U+FFFD per maximal invalid
subsequence), and Node 20 is compared live when it is on PATH."""

from __future__ import annotations

import json
import random

import pytest
from loader_stand_in import WebIsolate, node_json, requires_node

# Pieces that make byte soup interesting for a UTF-8 decoder: valid sequences of every
# length, their prefixes, overlongs, surrogates, out-of-range lead bytes and lone continuations.
FRAGMENTS = [
    b"a",
    b"\x00",
    b"\x7f",
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xef\xbb\xbf",
    b"\xc3",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\x80",
    b"\xbf",
    b"\xc0\xaf",
    b"\xe0\x80\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    b"\xf5",
    b"\xff",
    b"\xfe",
    b"\xf8\x88\x80\x80\x80",
]


def soup(rng: random.Random, pieces: int) -> bytes:
    return b"".join(rng.choice(FRAGMENTS) for _ in range(pieces))


def decode_in_isolate(web: WebIsolate, label: str, inputs: list[bytes], chunked: bool = False) -> list[str]:
    """Decodes each input whole, or (chunked) split into chunks of 1-4 bytes with stream: true."""
    lists = json.dumps([list(b) for b in inputs])
    if chunked:
        code = (
            f"{lists}.map((b, n) => {{ const d = new TextDecoder('{label}'); let out = ''; let i = 0; "
            "while (i < b.length) { const size = 1 + ((i * 7 + n) % 4); "
            "out += d.decode(new Uint8Array(b.slice(i, i + size)), { stream: true }); i += size; } "
            "return out + d.decode(); })"
        )
    else:
        code = f"{lists}.map((b) => new TextDecoder('{label}').decode(new Uint8Array(b)))"
    result: list[str] = json.loads(web.eval(f"JSON.stringify({code})"))
    return result


def test_utf8_byte_soup_decodes_as_python_replaces_it(web: WebIsolate) -> None:
    rng = random.Random("utf8-soup")
    inputs = [soup(rng, rng.randrange(12)) for _ in range(400)]
    expected = [b.decode("utf-8", errors="replace") for b in inputs]
    # Python keeps a leading BOM; the decoder strips it unless ignoreBOM is set.
    expected = [text[1:] if text.startswith("\ufeff") else text for text in expected]
    assert decode_in_isolate(web, "utf-8", inputs) == expected


def test_utf8_byte_soup_decodes_the_same_in_chunks_as_whole(web: WebIsolate) -> None:
    rng = random.Random("utf8-chunks")
    inputs = [soup(rng, rng.randrange(12)) for _ in range(300)]
    assert decode_in_isolate(web, "utf-8", inputs, chunked=True) == decode_in_isolate(web, "utf-8", inputs)


def test_utf16le_random_units_decode_as_python_replaces_them(web: WebIsolate) -> None:
    rng = random.Random("utf16")
    units = [0x41, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0xDC00, 0xFFFD, 0xFEFF]
    inputs = [b"".join(rng.choice(units).to_bytes(2, "little") for _ in range(rng.randrange(8))) for _ in range(300)]
    inputs = [b + b"\x41" if rng.random() < 0.2 else b for b in inputs]
    expected = [b.decode("utf-16-le", errors="replace") for b in inputs]
    expected = [text[1:] if text.startswith("\ufeff") else text for text in expected]
    assert decode_in_isolate(web, "utf-16le", inputs) == expected
    assert decode_in_isolate(web, "utf-16le", inputs, chunked=True) == expected


def test_fatal_decoding_throws_exactly_when_python_strict_decoding_fails(web: WebIsolate) -> None:
    rng = random.Random("fatal")
    inputs = [soup(rng, rng.randrange(6)) for _ in range(300)]
    code = (
        f"JSON.stringify({json.dumps([list(b) for b in inputs])}.map((b) => {{ try {{ return new TextDecoder("
        "'utf-8', { fatal: true, ignoreBOM: true }).decode(new Uint8Array(b)); } catch (e) { return e.code; } }))"
    )
    expected = []
    for b in inputs:
        try:
            expected.append(b.decode("utf-8"))
        except UnicodeDecodeError:
            expected.append("ERR_ENCODING_INVALID_ENCODED_DATA")
    assert json.loads(web.eval(code)) == expected


def test_encode_gives_python_utf8_with_lone_surrogates_replaced(web: WebIsolate) -> None:
    rng = random.Random("encode")
    units = ["a", "\u00e9", "\u20ac", "\ud83d", "\ude00", "\ud83d\ude00", "\uffff", "\x00"]
    texts = ["".join(rng.choice(units) for _ in range(rng.randrange(10))) for _ in range(300)]
    code = f"JSON.stringify({json.dumps(texts)}.map((t) => Array.from(new TextEncoder().encode(t))))"
    expected = [list(t.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()) for t in texts]
    assert json.loads(web.eval(code)) == expected


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 7, 10])
def test_encode_into_writes_what_fits_and_counts_code_units_read(web: WebIsolate, size: int) -> None:
    text = "a\u00e9\u20ac\ud83d\ude00\ud800z"
    code = (
        f"(() => {{ const b = new Uint8Array({size}).fill(0xee); const r = new TextEncoder().encodeInto("
        f"{json.dumps(text)}, b); return JSON.stringify([r.read, r.written, Array.from(b)]); }})()"
    )
    read, written, buffer = json.loads(web.eval(code))
    whole = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    # The longest prefix of whole characters whose UTF-8 fits in `size` bytes.
    fitted = ""
    for ch in whole:
        if len((fitted + ch).encode()) > size:
            break
        fitted += ch
    assert written == len(fitted.encode())
    assert buffer == list(fitted.encode()) + [0xEE] * (size - written)
    assert read == len(fitted.encode("utf-16-le")) // 2


def test_a_large_text_of_all_planes_round_trips_through_encode_and_decode(web: WebIsolate) -> None:
    code = (
        "(() => { const parts = []; for (let i = 1; i < 150000; i++) { const c = (i * 7919) % 0x110000; "
        "if (c < 0xd800 || c > 0xdfff) parts.push(String.fromCodePoint(c)); } const s = parts.join(''); "
        "const bytes = new TextEncoder().encode(s); return JSON.stringify([s.length, bytes.length, "
        "new TextDecoder().decode(bytes) === s]); })()"
    )
    text = "".join(
        chr((i * 7919) % 0x110000) for i in range(1, 150000) if not 0xD800 <= (i * 7919) % 0x110000 <= 0xDFFF
    )
    assert json.loads(web.eval(code)) == [len(text.encode("utf-16-le")) // 2, len(text.encode()), True]


@requires_node
def test_random_byte_soup_decodes_as_node_decodes_it_whole_streamed_and_fatal(web: WebIsolate) -> None:
    rng = random.Random()
    inputs = [list(soup(rng, rng.randrange(16))) for _ in range(300)]
    code = (
        f"{json.dumps(inputs)}.map((b, n) => {{ const whole = new TextDecoder().decode(new Uint8Array(b)); "
        "const d = new TextDecoder(); let streamed = ''; let i = 0; while (i < b.length) { const size = 1 + "
        "((i * 5 + n) % 3); streamed += d.decode(new Uint8Array(b.slice(i, i + size)), { stream: true }); i += size; } "
        "streamed += d.decode(); let fatal; try { fatal = new TextDecoder('utf-8', { fatal: true }).decode("
        "new Uint8Array(b)); } catch (e) { fatal = e.code; } return [whole, streamed, fatal]; })"
    )
    assert web.json(code) == node_json(code)


@requires_node
def test_random_strings_with_lone_surrogates_encode_as_node_encodes_them(web: WebIsolate) -> None:
    rng = random.Random()
    units = [0x61, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0xDBFF, 0xDC00, 0xFFFF]
    texts = [[rng.choice(units) for _ in range(rng.randrange(12))] for _ in range(300)]
    code = (
        f"{json.dumps(texts)}.map((u) => {{ const s = String.fromCharCode(...u); const b = new Uint8Array(7); "
        "const r = new TextEncoder().encodeInto(s, b); return [Array.from(new TextEncoder().encode(s)), r.read, "
        "r.written, Array.from(b)]; })"
    )
    assert web.json(code) == node_json(code)
