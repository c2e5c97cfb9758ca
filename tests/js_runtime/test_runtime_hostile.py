"""Code that tampers with built-ins, getters, proxies: the rendering and the outcome hold."""

from __future__ import annotations

import pytest
from isolate_harness import RunJs

TAMPERING = """
Array.prototype.join = null;
Array.prototype.push = null;
Array.prototype.map = undefined;
Array.prototype[Symbol.iterator] = function* () { throw new Error('iterated') };
JSON.stringify = () => 1;
JSON.parse = () => 2;
Object.keys = undefined;
Object.getOwnPropertyNames = null;
Object.getOwnPropertyDescriptor = null;
Object.getPrototypeOf = null;
Reflect.ownKeys = null;
Reflect.apply = null;
Function.prototype.call = null;
Function.prototype.apply = null;
Function.prototype.toString = () => { throw new Error('toString') };
String.prototype.slice = null;
String.prototype.indexOf = null;
String.prototype.includes = null;
String.prototype.charCodeAt = () => 0;
String.prototype.replace = null;
String.prototype.split = null;
String.prototype.repeat = null;
String.prototype[Symbol.replace] = () => 'x';
String.prototype[Symbol.split] = () => [];
RegExp.prototype.exec = () => null;
Symbol.prototype.toString = () => { throw new Error('symbol') };
Number.prototype.toString = () => 'n';
Date.prototype.toISOString = () => 'fake date';
Map.prototype.entries = null;
Map.prototype[Symbol.iterator] = null;
Set.prototype.values = null;
Error.prototype.toString = () => { throw new Error('error toString') };
Object.defineProperty(Object.prototype, 'get', { get() { throw new Error('get getter') } });
Object.defineProperty(Object.prototype, 'value', { get() { throw new Error('value getter') } });
Object.prototype.toJSON = () => 'hijacked';
globalThis.Error = null;
globalThis.Map = null;
globalThis.JSON = null;
globalThis.Symbol = null;
"""


def test_tampered_built_ins_do_not_break_console_output(run_js: RunJs) -> None:
    code = TAMPERING + "console.log({ a: [1, 'two'], d: new Date(0), f() {} }, 'é😀'.length);"
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["stdout"] == "{ a: [ 1, 'two' ], d: 1970-01-01T00:00:00.000Z, f: [Function: f] } 3\n"


def test_tampered_built_ins_do_not_break_the_result(run_js: RunJs) -> None:
    outcome = run_js(TAMPERING + "({ list: [1, 'two', { three: 3 }], when: new Date(0), big: 10n })")
    assert outcome["ok"] is True
    assert outcome["resultText"] == (
        "{\n  list: [ 1, 'two', { three: 3 } ],\n  when: 1970-01-01T00:00:00.000Z,\n  big: 10n\n}"
    )
    assert outcome["result"] == {"list": [1, "two", {"three": 3}], "when": "1970-01-01T00:00:00.000Z", "big": "10"}


def test_tampered_built_ins_do_not_break_error_reports(run_js: RunJs) -> None:
    outcome = run_js(TAMPERING + "null.boom")
    assert outcome["error"]["name"] == "TypeError"
    assert outcome["error"]["line"] == TAMPERING.count("\n") + 1


def test_tampered_built_ins_do_not_break_maps_sets_and_symbols(run_js: RunJs) -> None:
    setup = "const m = new Map([['k', 1]]); const s = new Set([2]); const y = Symbol('y');\n"
    outcome = run_js(setup + TAMPERING + "console.log(m, s, y); [m, s]")
    assert outcome["stdout"] == "Map(1) { 'k' => 1 } Set(1) { 2 } Symbol(y)\n"
    assert outcome["result"] == [{"k": 1}, [2]]


def test_tampered_built_ins_do_not_break_async_results_and_timers(run_js: RunJs) -> None:
    outcome = run_js(TAMPERING + "await new Promise(r => setTimeout(r, 1));\nreturn [1, 2];")
    assert outcome["result"] == [1, 2]


def test_a_replaced_promise_then_does_not_break_waiting_for_the_outcome(run_js: RunJs) -> None:
    code = "const realThen = Promise.prototype.then;\nPromise.prototype.then = function () { throw new Error('no') };\n"
    outcome = run_js(code + "setTimeout(() => console.log('timer'), 1); 'r'")
    assert (outcome["stdout"], outcome["resultText"]) == ("timer\n", "'r'")


def test_getters_are_not_invoked_when_rendering(run_js: RunJs) -> None:
    code = "let calls = 0;\nconst o = { get g() { calls++; throw new Error('invoked') } };\nconsole.log(o);\ncalls"
    outcome = run_js(code)
    assert outcome["stdout"] == "{ g: [Getter] }\n"
    assert outcome["result"] == 0


def test_a_proxy_whose_traps_throw_renders_as_a_placeholder(run_js: RunJs) -> None:
    code = "const p = new Proxy({}, { ownKeys() { throw new Error('trap!') } });\nconsole.log('before', p, 'after'); 1"
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["stdout"] == "before <Inspection threw (Error: trap!)> after\n"


def test_a_revoked_proxy_result_does_not_break_the_outcome(run_js: RunJs) -> None:
    outcome = run_js("const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); [proxy]")
    assert outcome["ok"] is True
    assert "<Inspection threw (TypeError: Cannot perform 'getPrototypeOf' on a proxy" in outcome["resultText"]
    assert outcome["result"][0].startswith("[Unserializable: TypeError:")


def test_a_plain_proxy_renders_like_its_target(run_js: RunJs) -> None:
    outcome = run_js("new Proxy({ a: 1, b: [2] }, {})")
    assert outcome["resultText"] == "{ a: 1, b: [ 2 ] }"


@pytest.mark.parametrize(
    ("code", "stdout"),
    [
        pytest.param(
            "const o = { toString() { throw new Error('x') } }; console.log('%s', o)",
            "{ toString: [Function: toString] }\n",
            id="throwing-toString",
        ),
        pytest.param(
            "const o = { [Symbol.toPrimitive]() { throw new Error('x') } }; console.log('%d', o)",
            "NaN\n",
            id="throwing-toPrimitive",
        ),
        pytest.param(
            "const e = new Error('m'); Object.defineProperty(e, 'stack', { get() { throw 1 } }); console.log([e])",
            "[ [Error: m] ]\n",
            id="throwing-stack-getter",
        ),
        pytest.param(
            "console.log(Object.create(null, { x: { get() { throw 1 }, enumerable: true } }))",
            "[Object: null prototype] { x: [Getter] }\n",
            id="null-prototype-getter",
        ),
    ],
)
def test_hostile_values_in_console_calls_render_without_throwing(run_js: RunJs, code: str, stdout: str) -> None:
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["stdout"] == stdout


def test_a_deleted_console_method_does_not_affect_later_runs_of_the_runtime(run_js: RunJs) -> None:
    outcome = run_js("delete console.log; console.error('still here'); 1")
    assert outcome["stderr"] == "still here\n"


def test_a_wide_shared_structure_renders_within_a_bounded_amount_of_work(run_js: RunJs) -> None:
    code = "let a = [0]; for (let i = 0; i < 40; i++) a = [a, a, a, a, a, a, a, a, a, a]; a"
    outcome = run_js(code, output_cap=2000)
    assert outcome["ok"] is True
    assert outcome["resultText"].startswith("[\n  [\n")
