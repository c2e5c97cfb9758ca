"""What a run evaluates to: completion values, top-level await and return, promises, input."""

from __future__ import annotations

import json

import pytest
from isolate_harness import Isolate, RunJs

OUTCOME_KEYS = {
    "ok",
    "resultText",
    "resultShortened",
    "resultType",
    "stdout",
    "stderr",
    "truncated",
    "omittedBytes",
    "error",
    "syntaxMode",
    "async",
}


@pytest.mark.parametrize(
    ("code", "result_text", "result_type"),
    [
        pytest.param("const xs = [3, 1, 2]; xs.sort()", "[ 1, 2, 3 ]", "array", id="sort-completion"),
        pytest.param("1 + 1", "2", "number", id="number"),
        pytest.param("'hello'", "'hello'", "string", id="string-quoted"),
        pytest.param("let n = 0; for (let i = 0; i < 4; i++) { n += i }", "6", "number", id="loop-completion"),
        pytest.param("if (true) { 'yes' } else { 'no' }", "'yes'", "string", id="if-completion"),
        pytest.param("const a = 1;", "undefined", "undefined", id="declaration-only"),
        pytest.param("2n ** 64n", "18446744073709551616n", "bigint", id="bigint"),
        pytest.param("({ a: 1, b: 'x' })", "{ a: 1, b: 'x' }", "object", id="object"),
        pytest.param("new Map([['a', 1]])", "Map(1) { 'a' => 1 }", "map", id="map"),
        pytest.param("new Set([1])", "Set(1) { 1 }", "set", id="set"),
        pytest.param("new Date(0)", "1970-01-01T00:00:00.000Z", "date", id="date"),
        pytest.param("null", "null", "null", id="null"),
        pytest.param("true", "true", "boolean", id="boolean"),
        pytest.param("Symbol('s')", "Symbol(s)", "symbol", id="symbol"),
        pytest.param("function named() {}; named", "[Function: named]", "function", id="function"),
        pytest.param("/a+/g", "/a+/g", "regexp", id="regexp"),
        pytest.param("new Uint8Array(2)", "Uint8Array(2) [ 0, 0 ]", "typedarray", id="typed-array"),
    ],
)
def test_the_completion_value_is_the_result(run_js: RunJs, code: str, result_text: str, result_type: str) -> None:
    outcome = run_js(code)
    assert outcome["ok"] is True
    assert outcome["resultText"] == result_text
    assert outcome["resultType"] == result_type
    assert outcome["async"] is False


def test_the_outcome_has_exactly_the_documented_keys(run_js: RunJs) -> None:
    assert set(run_js("undefined")) == OUTCOME_KEYS
    assert set(run_js("1")) == OUTCOME_KEYS | {"result"}


def test_an_undefined_result_has_no_structured_form(run_js: RunJs) -> None:
    outcome = run_js("undefined")
    assert outcome["resultText"] == "undefined"
    assert "result" not in outcome


def test_top_level_await_runs_the_code_as_an_async_function_body(run_js: RunJs) -> None:
    outcome = run_js("const v = await Promise.resolve(21);\nconsole.log('v', v);\nreturn v * 2;")
    assert outcome["ok"] is True
    assert outcome["async"] is True
    assert outcome["stdout"] == "v 21\n"
    assert outcome["result"] == 42


def test_top_level_return_without_await_also_uses_the_async_form(run_js: RunJs) -> None:
    outcome = run_js("const x = 5;\nreturn x + 1")
    assert (outcome["async"], outcome["result"]) == (True, 6)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("await null; 5", "5", id="same-line"),
        pytest.param("const v = await Promise.resolve(2);\nv * 21", "42", id="next-line"),
        pytest.param("const v = await 1;\nv * 2;  // done", "2", id="semicolon-and-comment"),
        pytest.param("await null\nconst a = [1, 2]\na\n  .map(x => x * 2)", "[ 2, 4 ]", id="continued-line"),
        pytest.param("await 0;\nconst s = 'a;b';\ns.split(';')", "[ 'a', 'b' ]", id="semicolon-in-string"),
        pytest.param("await 0;\nconst re = /;/g;\n'a;b'.replace(re, '-')", "'a-b'", id="semicolon-in-regexp"),
        pytest.param("await 0; if (true) { 1 }", "undefined", id="statement-last"),
        pytest.param("await 0; const k = 1;", "undefined", id="declaration-last"),
        pytest.param("const x = await (Promise.resolve(5));\nx", "5", id="parenthesised-await"),
        pytest.param("var await = 1; await + 1", "2", id="await-as-a-sloppy-identifier"),
    ],
)
def test_async_code_gives_its_last_expression_as_the_result_like_a_repl(
    run_js: RunJs, code: str, expected: str
) -> None:
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["resultText"] == expected


def test_errors_in_a_returned_last_expression_keep_the_models_columns(run_js: RunJs) -> None:
    outcome = run_js("await 0; undefined.z")
    assert (outcome["error"]["line"], outcome["error"]["column"]) == (1, 20)
    assert "main.js:1:20" in outcome["error"]["stack"]


def test_a_promise_result_is_awaited(run_js: RunJs) -> None:
    outcome = run_js("new Promise(resolve => setTimeout(() => resolve({ done: true }), 5))")
    assert outcome["resultText"] == "{ done: true }"
    assert outcome["result"] == {"done": True}
    assert outcome["async"] is False


def test_a_thenable_result_is_awaited(run_js: RunJs) -> None:
    outcome = run_js("({ then(resolve) { resolve('from thenable') } })")
    assert outcome["resultText"] == "'from thenable'"


def test_an_async_function_call_as_last_expression_is_awaited(run_js: RunJs) -> None:
    outcome = run_js("async function main() { await null; return [1, 2] }\nmain()")
    assert outcome["result"] == [1, 2]


def test_a_synchronous_run_returns_the_outcome_directly(isolate: Isolate) -> None:
    raw = isolate.run_raw("1 + 2")
    assert isinstance(raw, str)
    assert json.loads(raw)["result"] == 3


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("Promise.resolve(1)", id="promise-result"),
        pytest.param("setTimeout(() => {}, 1); 1", id="pending-timer"),
        pytest.param("Promise.resolve().then(() => console.log('later')); 1", id="queued-then"),
        pytest.param("await 1", id="async-mode"),
    ],
)
def test_a_run_with_work_left_returns_nothing_and_delivers_the_outcome_later(isolate: Isolate, code: str) -> None:
    raw = isolate.run_raw(code)
    assert raw == ""
    (delivered,) = isolate.delivered.get(timeout=5)
    assert json.loads(delivered)["ok"] is True


def test_output_of_a_promise_callback_queued_by_synchronous_code_is_kept(run_js: RunJs) -> None:
    outcome = run_js("Promise.resolve().then(() => console.log('micro')); 'sync'")
    assert outcome["stdout"] == "micro\n"
    assert outcome["resultText"] == "'sync'"


def test_input_is_a_parsed_copy_the_code_may_change(isolate: Isolate) -> None:
    payload = {"items": [1, 2, {"deep": True}], "name": "x"}
    outcome = isolate.run("input.items.push(99); input.name = 'changed'; input", json.dumps(payload))
    assert outcome["result"] == {"items": [1, 2, {"deep": True}, 99], "name": "changed"}
    assert isolate.mr.eval("Object.getOwnPropertyDescriptor(globalThis, 'input').writable") is True


def test_an_empty_input_string_means_input_is_undefined(run_js: RunJs) -> None:
    assert run_js("typeof input")["result"] == "undefined"


def test_invalid_input_json_is_reported_without_running_the_code(run_js: RunJs) -> None:
    outcome = run_js("console.log('ran')", "{not json")
    assert outcome["ok"] is False
    assert outcome["error"]["name"] == "SyntaxError"
    assert outcome["stdout"] == ""


def test_this_at_top_level_is_the_global_object(run_js: RunJs) -> None:
    assert run_js("this === globalThis")["result"] is True
    assert run_js("await 0; return this === globalThis")["result"] is True


@pytest.mark.parametrize(
    ("code", "shortened"),
    [
        pytest.param("Array.from({ length: 101 }, (_, i) => i)", True, id="over-100-items"),
        pytest.param("Array.from({ length: 100 }, (_, i) => i)", False, id="100-items"),
        pytest.param("new Set(Array.from({ length: 150 }, (_, i) => i))", True, id="set"),
        pytest.param("({ a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } })", True, id="deeper-than-shown"),
        pytest.param("({ a: { b: 1 } })", False, id="shallow"),
        pytest.param("'x'.repeat(500000)", True, id="huge-string"),
        pytest.param("new Uint8Array(200).buffer", True, id="buffer-bytes"),
    ],
)
def test_the_outcome_says_when_the_rendered_result_leaves_something_out(
    run_js: RunJs, code: str, shortened: bool
) -> None:
    assert run_js(code)["resultShortened"] is shortened
