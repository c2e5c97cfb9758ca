"""atob/btoa agree with Python's base64 on valid data and with Node 20 on every short string."""

from __future__ import annotations

import base64
import json
import random

from loader_stand_in import WebIsolate, node_json, requires_node


def test_btoa_and_atob_agree_with_python_on_random_bytes_of_every_length(web: WebIsolate) -> None:
    rng = random.Random("base64")
    blobs = [bytes(rng.randrange(256) for _ in range(n)) for n in range(200)]
    texts = [blob.decode("latin-1") for blob in blobs]
    encoded = json.loads(web.eval(f"JSON.stringify({json.dumps(texts)}.map((t) => btoa(t)))"))
    assert encoded == [base64.b64encode(blob).decode() for blob in blobs]
    decoded = json.loads(web.eval(f"JSON.stringify({json.dumps(encoded)}.map((t) => atob(t)))"))
    assert decoded == texts


def test_atob_ignores_ascii_whitespace_anywhere(web: WebIsolate) -> None:
    spaced = " aGVs\tbG8g\nd29y\x0cbGQ\r= \n"
    assert web.eval(f"atob({json.dumps(spaced)})") == "hello world"


def test_a_large_input_round_trips(web: WebIsolate) -> None:
    code = (
        "(() => { let s = ''; for (let i = 0; i < 300000; i++) s += String.fromCharCode((i * 31) & 255); "
        "const e = btoa(s); return [e.length, atob(e) === s]; })()"
    )
    assert json.loads(web.eval(f"JSON.stringify({code})")) == [400000, True]


# Every string of up to 5 characters over an alphabet that exercises padding, whitespace and
# invalid characters; the outcome is the decoded text or the error message.
EVERY_SHORT_STRING = (
    "(() => { const alphabet = ['A', 'w', '=', ' ', '\\n', '!', '+']; const all = ['']; "
    "for (let n = 0; n < 5; n++) { const size = all.length; for (let i = 0; i < size; i++) if (all[i].length === n) "
    "for (const c of alphabet) all.push(all[i] + c); } "
    "return all.map((s) => { try { return atob(s); } catch (e) { return e.name + ': ' + e.message; } }); })()"
)


@requires_node
def test_every_short_string_decodes_or_fails_as_in_node(web: WebIsolate) -> None:
    assert web.json(EVERY_SHORT_STRING) == node_json(EVERY_SHORT_STRING)
