"""execute_js through the MCP client: results, console, errors, limits, isolation, concurrency, cancellation."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from .conftest import make_settings

pytestmark = pytest.mark.anyio


async def run_js(client: Client, code: str, **arguments: Any) -> tuple[str, dict[str, Any], bool]:
    """Call execute_js; returns (text, structuredContent, isError)."""
    result = await client.call_tool("execute_js", {"code": code, **arguments})
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.structured_content is not None
    return text, result.structured_content, bool(result.is_error)


@pytest.fixture(scope="module")
async def output_schema(client: Client) -> dict[str, Any]:
    listed = await client.list_tools()
    (tool,) = [tool for tool in listed.tools if tool.name == "execute_js"]
    assert tool.output_schema is not None
    return tool.output_schema


@pytest.mark.parametrize(
    ("code", "expected_text", "expected_json"),
    [
        pytest.param("1 + 1", "2", 2, id="arithmetic"),
        pytest.param("const xs = [3, 1, 2]; xs.sort()", "[ 1, 2, 3 ]", [1, 2, 3], id="completion-value"),
        pytest.param("2n ** 100n", "1267650600228229401496703205376n", "1267650600228229401496703205376", id="bigint"),
        pytest.param("'a' + 'b'", "'ab'", "ab", id="string"),
        pytest.param(
            "({a: 1, b: [true, null]})", "{ a: 1, b: [ true, null ] }", {"a": 1, "b": [True, None]}, id="object"
        ),
        pytest.param("await Promise.resolve(41) + 1", "42", 42, id="top-level-await"),
        pytest.param("const x = 6; return x * 7", "42", 42, id="top-level-return"),
        pytest.param("Promise.resolve('later')", "'later'", "later", id="promise-result"),
        pytest.param(
            "await new Promise(resolve => setTimeout(() => resolve('tick'), 5))", "'tick'", "tick", id="timer"
        ),
        pytest.param("new Map([['k', 1]])", "Map(1) { 'k' => 1 }", {"k": 1}, id="map"),
    ],
)
async def test_the_result_is_the_completion_value_rendered_and_as_json(
    client: Client, output_schema: dict[str, Any], code: str, expected_text: str, expected_json: Any
) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    # A string result shows as the string itself; anything else as Node prints it.
    shown = expected_json if isinstance(expected_json, str) else expected_text
    assert text.startswith(f"Result: {shown}")
    assert structured["ok"] is True
    assert structured["resultText"] == expected_text
    assert structured["result"] == expected_json
    Draft202012Validator(output_schema).validate(structured)


async def test_undefined_result_has_no_json_form(client: Client) -> None:
    text, structured, is_error = await run_js(client, "let x = 1;")
    assert is_error is False
    assert "result" not in structured
    assert text.startswith("Result: undefined")


async def test_console_output_is_captured_in_order_and_formatted_like_node(client: Client) -> None:
    code = """
const o = {a: 1, nested: {list: [1, 2, 3]}}; o.self = o;
console.log('plain', 42, 'x');
console.log(o);
console.info(new Set([1, 2]));
console.warn('careful');
console.error(new Error('bad').message);
console.log('%s is %d', 'n', 7);
"""
    text, structured, is_error = await run_js(client, code)
    assert is_error is False
    assert structured["stdout"].splitlines() == [
        "plain 42 x",
        "<ref *1> { a: 1, nested: { list: [ 1, 2, 3 ] }, self: [Circular *1] }",
        "Set(2) { 1, 2 }",
        "n is 7",
    ]
    assert structured["stderr"] == "careful\nbad\n"
    assert "stdout:\n```\nplain 42 x" in text
    assert "stderr:\n```\ncareful\nbad\n```" in text
    assert "[object Object]" not in text


async def test_cyclic_results_are_marked_in_text_and_json(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "const a = {name: 'a'}; a.me = a; a")
    assert is_error is False
    assert structured["resultText"] == "<ref *1> { name: 'a', me: [Circular *1] }"
    assert structured["result"] == {"name": "a", "me": "[Circular]"}


async def test_input_is_a_global_copy_the_code_may_change(client: Client) -> None:
    data = {"rows": [{"price": 2.5, "qty": 4}, {"price": 10, "qty": 1}]}
    code = "input.rows.push({price: 1, qty: 1}); input.rows.reduce((s, r) => s + r.price * r.qty, 0)"
    _text, structured, is_error = await run_js(client, code, input=data)
    assert is_error is False
    assert structured["result"] == 21
    assert data["rows"] == [{"price": 2.5, "qty": 4}, {"price": 10, "qty": 1}]


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("const total = 6, data = [1, 2, 3];\n{ total, count: data.length }", id="script"),
        pytest.param(
            "const data = await Promise.resolve([1, 2, 3]);\nconst total = data.reduce((a, b) => a + b, 0);\n"
            "{ total, count: data.length }",
            id="after-await",
        ),
        pytest.param(
            "const data: number[] = await Promise.resolve([1, 2, 3]);\nconst total = data.reduce((a, b) => a + b, 0)\n"
            "{ total, count: data.length }",
            id="typescript-after-await-without-semicolon",
        ),
        pytest.param(
            "const data = [1, 2, 3];\nconst total = 6;\nif (total < 0) return null;\n{ total, count: data.length }",
            id="after-top-level-return",
        ),
    ],
)
async def test_a_last_object_literal_is_the_result_with_or_without_top_level_await(client: Client, code: str) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == {"total": 6, "count": 3}
    assert structured["resultText"] == "{ total: 6, count: 3 }"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("const x = [7, 8];\nlet y = x as any\n[1]", [1], id="typescript-ends-the-statement-after-as"),
        pytest.param("const x = [7, 8];\nlet y = x satisfies number[]\n`t`", "t", id="and-after-satisfies"),
        pytest.param("const a = 1, b = { c: 2 }, d = 0;\na < b.c > (d)", True, id="javascript-comparisons-stay"),
        pytest.param("class A { abstract = 1 }\nnew A().abstract", 1, id="javascript-field-named-abstract"),
    ],
)
async def test_the_result_is_what_the_code_means_in_its_own_language(client: Client, code: str, expected: Any) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == expected


async def test_an_error_inside_a_last_object_literal_after_await_points_into_the_code(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "const o = await Promise.resolve(null);\n{ a: 1, b: o.x }")
    assert is_error is True
    error = structured["error"]
    assert error["name"] == "TypeError"
    assert (error["line"], error["column"]) == (2, 14)


@pytest.mark.parametrize(
    ("code", "name", "line", "column"),
    [
        pytest.param("let a = 1;\nlet b = a +* 2;", "SyntaxError", 2, 12, id="script"),
        pytest.param("const v = await 1;\nreturn v +* 2;", "SyntaxError", 2, 11, id="async-body"),
    ],
)
async def test_syntax_errors_report_line_and_column_in_the_submitted_code(
    client: Client, code: str, name: str, line: int, column: int
) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is True
    error = structured["error"]
    assert error["kind"] == "syntax"
    assert error["name"] == name
    assert (error["line"], error["column"]) == (line, column)
    assert f"line {line}, column {column}" in text


@pytest.mark.parametrize(
    ("code", "line", "column"),
    [
        pytest.param("const o = null;\n\nfunction f() {\n  return o.x;\n}\nf();", 4, 12, id="script"),
        pytest.param("await 0;\nconst o = undefined;\no.y;", 3, 3, id="async-body"),
    ],
)
async def test_runtime_errors_report_name_message_position_and_a_trimmed_stack(
    client: Client, code: str, line: int, column: int
) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is True
    error = structured["error"]
    assert error["kind"] == "runtime"
    assert error["name"] == "TypeError"
    assert "Cannot read properties" in error["message"]
    assert (error["line"], error["column"]) == (line, column)
    assert f"main.js:{line}:{column}" in error["stack"]
    assert "js_runtime" not in error["stack"] and "<anonymous>" not in error["stack"]
    assert text.startswith(f"Error: Uncaught exception at line {line}, column {column}: TypeError")


async def test_output_printed_before_an_error_is_kept(client: Client) -> None:
    text, structured, is_error = await run_js(client, "console.log('step 1'); throw new RangeError('nope')")
    assert is_error is True
    assert structured["stdout"] == "step 1\n"
    assert structured["error"]["name"] == "RangeError"
    assert "stdout:\n```\nstep 1\n```" in text


async def test_deep_recursion_is_a_runtime_range_error(client: Client) -> None:
    _, structured, is_error = await run_js(client, "function f(n) { return f(n + 1) + 1 } f(0)")
    assert is_error is True
    assert structured["error"]["kind"] == "runtime"
    assert structured["error"]["name"] == "RangeError"


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("while (true) {}", id="plain-loop"),
        pytest.param("Promise.resolve().then(() => { while (true) {} }); 1", id="microtask-loop"),
        pytest.param("await null; while (true) {}", id="await-continuation-loop"),
        pytest.param("setTimeout(() => { for (;;) {} }, 1); 'scheduled'", id="timer-loop"),
        pytest.param("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)", id="atomics-wait"),
    ],
)
async def test_runaway_code_times_out_with_an_actionable_message(client: Client, code: str) -> None:
    with anyio.fail_after(30):
        text, structured, is_error = await run_js(client, code, timeout_ms=300)
    assert is_error is True
    assert structured["error"]["kind"] == "timeout"
    assert "timeout_ms=300" in text and "larger timeout_ms" in text
    assert structured["timeoutMs"] == 300
    _, after, _ = await run_js(client, "'still serving'")
    assert after["result"] == "still serving"


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("const a = []; while (true) a.push(new Array(1e6).fill(1));", id="heap-growth"),
        pytest.param("new Array(1e9).fill(0)", id="huge-array"),
        pytest.param("const b = []; while (true) b.push(new ArrayBuffer(64 * 1024 * 1024));", id="arraybuffer"),
    ],
)
async def test_memory_bombs_end_as_memory_errors_and_the_server_carries_on(client: Client, code: str) -> None:
    with anyio.fail_after(60):
        text, structured, is_error = await run_js(client, code, timeout_ms=20_000)
    assert is_error is True
    assert structured["error"]["kind"] == "memory", structured["error"]
    assert "MiB" in text
    _, after, _ = await run_js(client, "6 * 7")
    assert after["result"] == 42


async def test_huge_output_is_truncated_keeping_head_and_tail(client: Client) -> None:
    code = "for (let i = 0; i < 200000; i++) console.log('line ' + i); 'done'"
    text, structured, is_error = await run_js(client, code)
    assert is_error is False
    assert structured["truncated"] is True
    assert structured["omittedBytes"] > 1_000_000
    assert structured["stdout"].startswith("line 0\nline 1\n")
    assert structured["stdout"].rstrip("\n").endswith("line 199999")
    assert "bytes omitted" in structured["stdout"]
    total = sum(len(structured[key].encode()) for key in ("stdout", "stderr")) + len(structured["resultText"])
    assert total <= 65_536 + 200  # the cap, plus the omission markers
    assert "output truncated" in text


async def test_nothing_one_call_defines_is_visible_to_the_next(client: Client) -> None:
    first = "globalThis.leak = 'secret'; Array.prototype.evil = 1; var v = 1; setTimeout(() => {}, 1); 'set'"
    await run_js(client, first)
    for _ in range(3):  # whichever worker serves the next calls
        _, structured, _ = await run_js(client, "[typeof leak, typeof [].evil, typeof v]")
        assert structured["result"] == ["undefined", "undefined", "undefined"]


async def test_parallel_calls_all_complete_with_their_own_results(client: Client) -> None:
    results: dict[int, Any] = {}

    async def one(n: int) -> None:
        _, structured, _ = await run_js(client, f"await new Promise(r => setTimeout(r, 20)); {n} * 2")
        results[n] = structured["result"]

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            for n in range(8):
                group.start_soon(one, n)
    assert results == {n: n * 2 for n in range(8)}


@pytest.fixture
async def own_server() -> AsyncIterator[tuple[Client, App]]:
    app = App.create(make_settings(workers=1))
    async with Client(build_server(app=app), mode="legacy") as connected:
        yield connected, app


@pytest.mark.filterwarnings("ignore:ping is removed:mcp.shared.exceptions.MCPDeprecationWarning")
async def test_ping_is_answered_while_code_runs_away(own_server: tuple[Client, App]) -> None:
    connected, _ = own_server
    pings = 0

    async def runaway() -> None:
        await run_js(connected, "while (true) {}", timeout_ms=2_000)

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            group.start_soon(runaway)
            for _ in range(5):
                with anyio.fail_after(1):
                    await connected.send_ping()
                pings += 1
    assert pings == 5


async def test_progress_is_reported_while_code_runs(own_server: tuple[Client, App]) -> None:
    connected, _ = own_server
    seen: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(progress)

    with anyio.fail_after(30):
        result = await connected.call_tool(
            "execute_js",
            {"code": "await new Promise(r => setTimeout(r, 1300)); 'ok'"},
            progress_callback=on_progress,
        )
    assert result.is_error is False
    assert len(seen) >= 2
    assert seen == sorted(seen) and len(set(seen)) == len(seen)


async def test_cancelling_a_running_call_stops_it_and_frees_its_worker(own_server: tuple[Client, App]) -> None:
    connected, app = own_server
    started = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        started.set()

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:

            async def call() -> None:
                await connected.call_tool(
                    "execute_js", {"code": "while (true) {}", "timeout_ms": 60_000}, progress_callback=on_progress
                )

            group.start_soon(call)
            await started.wait()
            group.cancel_scope.cancel()
        # With its only worker freed, the pool serves the next call long before the 60 s limit.
        _, structured, _ = await run_js(connected, "'after cancel'")
    assert structured["result"] == "after cancel"
    assert app.pool.stats()["busy"] == 0


async def test_printing_an_iterator_inside_the_loop_that_iterates_it_changes_nothing(client: Client) -> None:
    code = "const s = new Set([1, 2, 3]); const it = s.values(); const seen = [];\n"
    code += "for (const v of it) { console.log(v, it); seen.push(v); }\nseen"
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == [1, 2, 3]
    assert structured["stdout"] == "1 [Set Iterator] { 2, 3 }\n2 [Set Iterator] { 3 }\n3 [Set Iterator] {  }\n"
