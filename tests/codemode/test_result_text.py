"""The text a model reads after execute_js_with_tools: a result JSON holds exactly comes as one line of compact JSON,
anything JSON would change keeps Node's rendering, and the calls made are listed whenever one did not succeed or the
run failed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from ..conftest import REVISIONS
from .conftest import CodeMode, code_mode, stdio_server, text_of, write_config

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module", params=REVISIONS)
async def mode(upstream_dir: Path, request: pytest.FixtureRequest) -> AsyncIterator[CodeMode]:
    config = write_config(
        upstream_dir, {"records": stdio_server("records"), "locked": stdio_server("writes")}, "result-text.json"
    )
    async with code_mode(config, client_mode=request.param) as connected:
        yield connected


async def test_an_object_result_is_one_line_of_compact_json(mode: CodeMode) -> None:
    result, structured = await mode.run(
        "const { records } = await tools.records.list_records({ limit: 3 });\n"
        "({ names: records.map((r) => r.name), first: { id: records[0].id, open: records[0].status === 'open' } })"
    )
    text = text_of(result)
    assert text == "Result: " + json.dumps(structured["result"], separators=(",", ":"))
    assert text.startswith('Result: {"names":["record-001","record-002","record-003"],"first":{"id":1,"open":')
    assert "\n" in structured["resultText"]  # Node's rendering, kept in the structured result


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        pytest.param("[1e21, 1e-7, 0.1 + 0.2, -5, 2 ** 53 + 2]", "[1e+21,1e-7,0.30000000000000004,-5,9007199254740994]",
                     id="numbers-as-javascript-writes-them"),
        pytest.param("({ 'a-b': 1, 2: 'x', $d: true, _e: null, é: [] })",
                     '{"2":"x","a-b":1,"$d":true,"_e":null,"é":[]}', id="keys-node-quotes"),
        pytest.param("[[], {}, [[{}]]]", "[[],{},[[{}]]]", id="empty-and-nested"),
    ],
)  # fmt: skip
async def test_numbers_keys_and_nesting_read_as_javascript_wrote_them(mode: CodeMode, code: str, shown: str) -> None:
    result, _ = await mode.run(code)
    assert text_of(result) == f"Result: {shown}"


async def test_strings_of_any_kind_come_back_as_the_same_values(mode: CodeMode) -> None:
    code = r"""({
      quotes: `it's "quoted" and \`ticked\``, lines: 'one\ntwo\r\n', controls: '\x00\x07\x1b\x7f\x85',
      separators: 'a\u2028b\u2029c', unicode: 'é 😀 \u202e', backslash: '\\n is not a newline',
      long: 'line of text\n'.repeat(12),
    })"""
    result, structured = await mode.run(code)
    text = text_of(result)
    assert text.startswith("Result: {") and "\n" not in text, text
    assert json.loads(text.removeprefix("Result: ")) == structured["result"]
    for invisible in ("\x7f", "\x85", "\u2028", "\u2029"):  # escaped, as Node's rendering escapes the first two
        assert invisible not in text
    assert structured["result"]["controls"] == "\x00\x07\x1b\x7f\x85"


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("({ when: new Date(0) })", id="date"),
        pytest.param("({ missing: undefined, here: 1 })", id="undefined"),
        pytest.param("({ ratio: 0 / 0 })", id="nan"),
        pytest.param("({ big: 12n })", id="bigint"),
        pytest.param("({ zero: -0 })", id="negative-zero"),
        pytest.param("new Map([['a', 1]])", id="map"),
        pytest.param("({ tags: new Set(['a']) })", id="set"),
        pytest.param("({ run() {} })", id="function"),
        pytest.param("[1, , 3]", id="hole"),
        pytest.param("class Point { x = 1 }; [new Point()]", id="class-instance"),
        pytest.param("Object.assign(Object.create(null), { a: 1 })", id="null-prototype"),
        pytest.param("const o = { a: 1 }; o.self = o; o", id="cycle"),
        pytest.param("({ get value() { return 1; } })", id="getter"),
        pytest.param("Object.assign([1, 2], { extra: 3 })", id="array-with-a-property"),
        pytest.param("({ error: new Error('boom') })", id="error"),
        pytest.param("({ [Symbol('s')]: 1 })", id="symbol-key"),
        pytest.param("({ a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } })", id="past-the-rendering-depth"),
        pytest.param("({ lone: 'x\\ud800y' })", id="lone-surrogate"),
        pytest.param("Array.from({ length: 150 }, (_, i) => i)", id="past-a-hundred-items"),
    ],
)
async def test_a_value_json_would_change_keeps_nodes_rendering(mode: CodeMode, code: str) -> None:
    result, structured = await mode.run(code)
    text, rendered = text_of(result), structured["resultText"]
    assert structured["ok"], text
    assert text.startswith((f"Result: {rendered}", f"Result:\n```\n{rendered}\n```")), text
    if "result" in structured:
        assert json.dumps(structured["result"], separators=(",", ":"), ensure_ascii=False) not in text


async def test_strings_and_numbers_read_as_before(mode: CodeMode) -> None:
    assert text_of((await mode.run("'plain text'"))[0]) == "Result: plain text"
    assert text_of((await mode.run("6 * 7"))[0]) == "Result: 42"
    assert text_of((await mode.run("'{\"a\": 1}'"))[0]) == 'Result: {"a": 1}'


async def test_execute_js_keeps_nodes_rendering(mode: CodeMode) -> None:
    result = await mode.client.call_tool("execute_js", {"code": "({ names: ['a', 'b'], total: 3 })"})
    assert text_of(result) == "Result: { names: [ 'a', 'b' ], total: 3 }"


async def test_calls_that_all_succeeded_are_not_listed_again(mode: CodeMode) -> None:
    result, structured = await mode.run("(await tools.records.get_record({ id: 2 })).record.id")
    assert text_of(result) == "Result: 2"
    assert [call["outcome"] for call in structured["toolCalls"]] == ["ok"]


@pytest.mark.parametrize(
    ("code", "listed"),
    [
        pytest.param(
            "try { await tools.records.fail({ message: 'no' }); } catch {}\n'went on'",
            "Tool calls (1): records.fail error",
            id="a-failure-the-code-caught",
        ),
        pytest.param(
            "try { await tools.locked.touch(); } catch {}\n'went on'",
            "Tool calls (1): locked.touch refused",
            id="a-refusal-the-code-caught",
        ),
        pytest.param(
            "await tools.records.get_record({ id: 1 });\nthrow new Error('after the call')",
            "Tool calls (1): records.get_record ok",
            id="a-run-that-failed-after-a-call",
        ),
    ],
)
async def test_calls_are_listed_when_one_did_not_succeed_or_the_run_failed(
    mode: CodeMode, code: str, listed: str
) -> None:
    result, _ = await mode.run(code)
    assert text_of(result).endswith("\n\n" + listed)
