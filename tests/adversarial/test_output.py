"""Output that is huge, deep, cyclic, exotic or hostile: it comes back capped and readable, never breaks a call."""

from __future__ import annotations

import re
from typing import Any

import pytest

from sandbox_server.settings import DEFAULT_OUTPUT_CAP_BYTES

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

MARKER = re.compile(r"\n?\.\.\. \[(\d+) bytes omitted\] \.\.\.\n?")
REPLACEMENT = "\ufffd"


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8"))


def kept_and_missing(text: str) -> tuple[int, int]:
    """Bytes of the original kept in a capped text, and the bytes its one omission marker says are missing."""
    markers = MARKER.findall(text)
    assert len(markers) == 1, f"expected one omission marker in {text[:200]!r}..."
    return utf8_size(MARKER.sub("", text)), int(markers[0])


def shown_size(structured: dict[str, Any]) -> int:
    return sum(utf8_size(structured.get(key) or "") for key in ("stdout", "stderr", "resultText"))


async def test_megabytes_of_console_lines_keep_head_and_tail_within_the_cap(sandbox: Sandbox) -> None:
    call = await sandbox.run("for (let i = 0; i < 200000; i++) console.log('line ' + i + ' ' + 'z'.repeat(40)); 'done'")
    structured = call.structured
    assert call.is_error is False
    assert structured["truncated"] is True
    assert structured["stdout"].startswith("line 0 zzz")
    assert structured["stdout"].endswith("line 199999 " + "z" * 40 + "\n")
    kept, missing = kept_and_missing(structured["stdout"])
    assert kept + missing == sum(utf8_size(f"line {i} " + "z" * 40 + "\n") for i in range(200000))
    assert structured["omittedBytes"] == missing
    assert structured["result"] == "done"
    assert shown_size(structured) <= DEFAULT_OUTPUT_CAP_BYTES
    await sandbox.assert_still_serving()


async def test_one_huge_line_on_each_stream_is_cut_to_head_and_tail(sandbox: Sandbox) -> None:
    call = await sandbox.run("console.log('a' + 'x'.repeat(5e7)); console.error('b' + 'y'.repeat(5e7)); 1")
    structured = call.structured
    assert structured["ok"] is True
    missing_total = 0
    for key, first, fill in (("stdout", "a", "x"), ("stderr", "b", "y")):
        assert structured[key].startswith(first + fill * 100)
        assert structured[key].endswith(fill * 100 + "\n")
        kept, missing = kept_and_missing(structured[key])
        assert kept + missing == 50_000_002
        missing_total += missing
    assert structured["omittedBytes"] == missing_total
    assert shown_size(structured) <= DEFAULT_OUTPUT_CAP_BYTES
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("code", "head", "rest", "json_size"),
    [
        pytest.param("'<' + 'y'.repeat(1e8) + '>'", "'<yyy", 100_000_002 - 10_000, 100_000_004, id="100-MB-string"),
        # Every character needs an escape: 6 bytes each in JSON (\u0001).
        pytest.param("'\\x01'.repeat(5e7)", "'\\x01\\x01", 50_000_000 - 10_000, 300_000_002, id="50-MB-escapes"),
        pytest.param("'\\u{1F600}'.repeat(2.5e7)", "'\U0001f600", 50_000_000 - 10_000, 100_000_002, id="emoji"),
    ],
)
async def test_a_huge_string_result_is_a_success_rendered_as_node_cuts_it_with_the_structured_copy_left_out(
    sandbox: Sandbox, code: str, head: str, rest: int, json_size: int
) -> None:
    call = await sandbox.run(code)
    structured = call.structured
    assert call.is_error is False, call.text[:300]
    assert (structured["ok"], structured["truncated"], structured["resultType"]) == (True, True, "string")
    text = structured["resultText"]
    # As Node's REPL shows it: the first 10,000 characters (UTF-16 units), then how many more there are.
    assert text.startswith(head) and text.endswith(f"'... {rest} more characters")
    # The structured copy does not fit: it is left out whole, and counted.
    assert "result" not in structured
    assert structured["omittedBytes"] == json_size
    assert utf8_size(text) <= DEFAULT_OUTPUT_CAP_BYTES
    assert "output truncated" in call.text
    await sandbox.assert_still_serving()


async def test_a_string_result_longer_than_node_shows_whole_is_cut_in_the_rendering_only(sandbox: Sandbox) -> None:
    call = await sandbox.run("'a'.repeat(10050)")
    structured = call.structured
    assert structured["resultText"] == "'" + "a" * 10_000 + "'... 50 more characters"
    assert structured["result"] == "a" * 10_050
    # The text shows the string itself, as console.log prints it.
    assert call.text == "Result: " + "a" * 10_050


def nesting(value: Any, key: str) -> tuple[int, Any]:
    """How many objects deep ``value`` goes through ``key`` (or index 0), and what is at the bottom."""
    depth = 0
    while isinstance(value, dict | list):
        value = value[key] if isinstance(value, dict) else value[0]
        depth += 1
    return depth, value


@pytest.mark.parametrize(
    ("build", "placeholder"),
    [
        pytest.param("let o = {}; const root = o; for (let i = 0; i < 10000; i++) { o.c = {}; o = o.c; }", "[Object]"),
        pytest.param(
            "let o = []; const root = o; for (let i = 0; i < 10000; i++) { o.push([]); o = o[0]; }", "[Array]"
        ),
    ],
    ids=["objects", "arrays"],
)
async def test_ten_thousand_levels_of_nesting_render_to_a_bounded_depth(
    sandbox: Sandbox, build: str, placeholder: str
) -> None:
    call = await sandbox.run(build + " console.log(root); console.dir(root, { depth: null }); root")
    structured = call.structured
    assert call.is_error is False
    assert placeholder in structured["resultText"]
    assert structured["stdout"].startswith(structured["resultText"] + "\n")
    # The structured copy stops at 64 levels, as a placeholder string.
    assert nesting(structured["result"], "c") == (64, "[Object]")
    await sandbox.assert_still_serving()


async def test_cyclic_results_are_marked_in_the_text_and_in_the_structured_copy(sandbox: Sandbox) -> None:
    code = "const o = { name: 'o' }; o.self = o; const list = [o]; list.push(list); const m = new Map(); m.set('m', m);"
    call = await sandbox.run(code + " [o, list, m]")
    assert call.structured["resultText"] == (
        "[\n"
        "  <ref *1> { name: 'o', self: [Circular *1] },\n"
        "  <ref *2> [\n    <ref *1> { name: 'o', self: [Circular *1] },\n    [Circular *2]\n  ],\n"
        "  <ref *3> Map(1) { 'm' => [Circular *3] }\n"
        "]"
    )
    assert call.structured["result"] == [
        {"name": "o", "self": "[Circular]"},
        [{"name": "o", "self": "[Circular]"}, "[Circular]"],
        {"m": "[Circular]"},
    ]
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("code", "text", "json", "result_type"),
    [
        pytest.param("2n ** 100n", "1267650600228229401496703205376n", "1267650600228229401496703205376", "bigint"),
        pytest.param("-(2n ** 64n)", "-18446744073709551616n", "-18446744073709551616", "bigint"),
        pytest.param("Symbol('s')", "Symbol(s)", "Symbol(s)", "symbol"),
        pytest.param("({ [Symbol('k')]: Symbol.iterator, s: Symbol() })", None, {"s": "Symbol()"}, "object"),
        pytest.param(
            "[NaN, -Infinity, -0, undefined, null]",
            "[ NaN, -Infinity, -0, undefined, null ]",
            ["NaN", "-Infinity", 0, None, None],
            "array",
        ),
    ],
    ids=["bigint", "negative-bigint", "symbol", "symbol-keys-and-values", "numbers-json-lacks"],
)
async def test_values_json_cannot_hold_come_back_readable(
    sandbox: Sandbox, code: str, text: str | None, json: Any, result_type: str
) -> None:
    call = await sandbox.run(code)
    assert call.is_error is False
    if text is not None:
        assert call.structured["resultText"] == text
    assert call.structured["result"] == json
    assert call.structured["resultType"] == result_type


async def test_a_bigint_of_a_million_bits_is_a_truncated_success(sandbox: Sandbox) -> None:
    call = await sandbox.run("2n ** 1000000n")
    structured = call.structured
    assert (structured["ok"], structured["truncated"], structured["resultType"]) == (True, True, "bigint")
    assert structured["resultText"].startswith("99006562292958982506979236163019032507")
    assert structured["resultText"].endswith("09376n")
    assert "result" not in structured
    await sandbox.assert_still_serving()


THROWING_TRAPS = (
    "{ get() { throw new Error('get trap') }, ownKeys() { throw new Error('keys trap') }, "
    "getOwnPropertyDescriptor() { throw new Error('descriptor trap') }, "
    "getPrototypeOf() { throw new Error('prototype trap') } }"
)


async def test_printing_proxies_whose_traps_throw_shows_placeholders(sandbox: Sandbox) -> None:
    code = (
        f"const p = new Proxy({{}}, {THROWING_TRAPS}); console.log(p); console.log('%s|%d|%j|%o', p, p, p, p);"
        " console.log({ p }); 'printed'"
    )
    call = await sandbox.run(code)
    assert call.is_error is False
    assert call.structured["stdout"].splitlines() == [
        "<Inspection threw (Error: prototype trap)>",
        "<Inspection threw (Error: prototype trap)>|NaN|[Unserializable: get trap]|"
        "<Inspection threw (Error: prototype trap)>",
        "{ p: <Inspection threw (Error: prototype trap)> }",
    ]
    assert call.structured["result"] == "printed"


async def test_a_proxy_result_whose_descriptor_traps_throw_renders_as_a_placeholder(sandbox: Sandbox) -> None:
    code = (
        "new Proxy({ a: 1 }, { ownKeys() { throw new Error('keys trap') }, "
        "getOwnPropertyDescriptor() { throw new Error('descriptor trap') } })"
    )
    call = await sandbox.run(code)
    assert call.is_error is False
    assert call.structured["resultText"] == "<Inspection threw (Error: descriptor trap)>"
    assert call.structured["result"] == "[Unserializable: Error: descriptor trap]"


@pytest.mark.parametrize(
    ("code", "name", "message"),
    [
        pytest.param("new Proxy({}, { get() { throw new Error('get trap') } })", "Error", "get trap", id="get-trap"),
        pytest.param(
            "const r = Proxy.revocable({}, {}); r.revoke(); r.proxy",
            "TypeError",
            "Cannot perform 'getPrototypeOf' on a proxy that has been revoked",
            id="revoked-proxy",
        ),
        pytest.param(
            "const r = Proxy.revocable({}, {}); r.revoke(); await null; return r.proxy",
            "TypeError",
            "Cannot perform 'get' on a proxy that has been revoked",
            id="revoked-proxy-returned-after-await",
        ),
    ],
)
async def test_a_result_whose_then_cannot_be_read_fails_as_awaiting_it_would(
    sandbox: Sandbox, code: str, name: str, message: str
) -> None:
    # A result is awaited when it is a promise or a thenable; finding out reads its `then` (and, in script mode,
    # its prototype), which is what `await value` does too. When that throws, the call fails with that error.
    call = await sandbox.run(code)
    assert (call.error["kind"], call.error["name"], call.error["message"]) == ("runtime", name, message)
    await sandbox.assert_still_serving()


async def test_a_revoked_proxy_inside_a_result_renders_as_a_placeholder(sandbox: Sandbox) -> None:
    call = await sandbox.run("const r = Proxy.revocable({}, {}); r.revoke(); ({ p: r.proxy, list: [r.proxy], n: 1 })")
    revoked = "TypeError: Cannot perform 'getPrototypeOf' on a proxy that has been revoked"
    assert call.is_error is False
    assert call.structured["resultText"] == (
        f"{{\n  p: <Inspection threw ({revoked})>,\n  list: [\n    <Inspection threw ({revoked})>\n  ],\n  n: 1\n}}"
    )
    assert call.structured["result"] == {
        "p": f"[Unserializable: {revoked}]",
        "list": [f"[Unserializable: {revoked}]"],
        "n": 1,
    }


async def test_conversion_methods_that_throw_do_not_break_printing_or_the_result(sandbox: Sandbox) -> None:
    code = """
const o = {
  toString() { throw new Error('toString') },
  valueOf() { throw new Error('valueOf') },
  [Symbol.toPrimitive]() { throw new Error('toPrimitive') },
  toJSON() { throw new Error('toJSON') },
};
console.log('%s|%d|%i|%f', o, o, o, o);
console.error(o);
({ o, list: [o] })
"""
    call = await sandbox.run(code)
    structured = call.structured
    assert call.is_error is False
    assert structured["stdout"].endswith("|NaN|NaN|NaN\n")
    assert structured["stderr"].startswith("{\n  toString: [Function: toString],")
    assert structured["result"] == {"o": "[toJSON threw: toJSON]", "list": ["[toJSON threw: toJSON]"]}
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("code", "message_start"),
    [
        pytest.param(
            "throw { get message() { throw 1 }, get name() { throw 2 }, get stack() { throw 3 }, "
            "toString() { throw 4 } }",
            "{\n  message: [Getter],",
            id="object-whose-getters-throw",
        ),
        pytest.param(
            f"throw new Proxy({{}}, {THROWING_TRAPS})",
            "<Inspection threw (Error: prototype trap)>",
            id="proxy-whose-traps-throw",
        ),
        pytest.param(
            "const r = Proxy.revocable({}, {}); r.revoke(); throw r.proxy",
            "<Inspection threw (TypeError: Cannot perform 'getPrototypeOf' on a proxy that has been revoked)>",
            id="revoked-proxy",
        ),
        pytest.param("await Promise.reject(Symbol('why'))", "Symbol(why)", id="rejected-with-a-symbol"),
    ],
)
async def test_thrown_values_that_resist_reading_are_described_without_running_them(
    sandbox: Sandbox, code: str, message_start: str
) -> None:
    call = await sandbox.run(code)
    assert (call.error["kind"], call.error["name"]) == ("runtime", "Uncaught")
    assert call.error["message"].startswith(message_start)
    await sandbox.assert_still_serving()


async def test_lone_surrogates_in_every_part_of_the_output_come_back_as_replacement_characters(
    sandbox: Sandbox,
) -> None:
    # Half an emoji is an ordinary JavaScript string; UTF-8 cannot carry it, and one of them in a result once
    # ended the whole stdio server when it serialised the response. Sandbox.call serialises every result.
    code = """
const half = '\\u{1F600}'.slice(0, 1);
console.log('out ' + half);
console.error('err ' + half);
({ [half]: half, low: String.fromCharCode(0xdc00), pair: '\\u{1F600}' })
"""
    call = await sandbox.run(code)
    structured = call.structured
    assert call.is_error is False
    assert structured["stdout"] == f"out {REPLACEMENT}\n"
    assert structured["stderr"] == f"err {REPLACEMENT}\n"
    assert structured["result"] == {REPLACEMENT: REPLACEMENT, "low": REPLACEMENT, "pair": "\U0001f600"}
    # The rendering shows them as escapes, the way Node prints them.
    assert structured["resultText"] == "{ '\\ud83d': '\\ud83d', low: '\\udc00', pair: '\U0001f600' }"


async def test_a_lone_surrogate_in_an_error_comes_back_as_a_replacement_character(sandbox: Sandbox) -> None:
    call = await sandbox.run("const e = new TypeError('bad ' + '\\u{1F600}'.slice(1)); e.name = '\\ud800'; throw e")
    assert (call.error["kind"], call.error["name"], call.error["message"]) == ("runtime", REPLACEMENT, "bad \ufffd")
    assert "\ufffd" in call.text
    await sandbox.assert_still_serving()
