"""Loading the runtime: what the script evaluates to and what it leaves in the global scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from isolate_harness import Isolate
from py_mini_racer import JSArray, JSFunction, MiniRacer

import js_runtime
from js_runtime import SCRIPT_NAME, source, web_modules

WEB_GLOBALS = {name for names, _source in web_modules().values() for name in names}
USER_FACING_GLOBALS = {
    "setInterval",
    "clearInterval",
    "queueMicrotask",
    "structuredClone",
    "display",
    *WEB_GLOBALS,
}


def test_the_script_name_is_main_js() -> None:
    assert SCRIPT_NAME == "main.js"


def test_every_runtime_file_opens_with_a_comment_saying_why() -> None:
    folder = Path(js_runtime.__file__).parent
    files = sorted(folder.glob("*.js"))
    assert len(files) >= 10
    for path in files:
        assert path.read_text(encoding="utf-8").startswith("//"), path.name


def test_source_is_cached_and_leaves_out_comment_lines_but_keeps_the_script_name() -> None:
    assert source() is source()
    lines = source().splitlines()
    assert not [line for line in lines if line.startswith("//") and not line.startswith("//#")]
    assert "//# sourceURL=sandbox-runtime.js" in lines


def test_the_runtime_evaluates_to_its_request_entry_carrying_the_entry_points_tests_call(isolate: Isolate) -> None:
    assert isinstance(isolate.api, JSFunction)
    names = ["abort", "abortMemory", "connect", "deferredLoaded", "run", "warmUp"]
    assert sorted(isolate.api.keys()) == names
    for name in names:
        assert isinstance(isolate.api[name], JSFunction)
    # The entry takes its request as `this`; an unknown one is refused.
    assert isolate.api(this="no such request") is False
    assert isolate.api(this="deferredLoaded") == isolate.api["deferredLoaded"]()


def test_connect_hands_back_the_empty_argument_list_of_every_later_call_and_only_once() -> None:
    mr = MiniRacer()
    try:
        entry = mr.eval(source())
        context = mr._ctx
        assert context is not None
        with context._register_js_notification(lambda handle: None) as notify:
            arguments = entry(notify, this="connect\nwarm\n" + js_runtime.deferred_source())
            assert isinstance(arguments, JSArray)
            assert len(arguments) == 0
            assert entry(notify, this="connect\ncold\n") is False
    finally:
        mr.close()


def test_the_warm_up_run_reports_success_and_leaves_the_runtime_ready(isolate: Isolate) -> None:
    assert isolate.api["warmUp"]() == ""
    assert isolate.run("6 * 7")["resultText"] == "42"


def test_loading_adds_only_the_user_facing_global_names() -> None:
    mr = MiniRacer()
    try:
        before = set(json.loads(mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")))
        mr.eval(source())
        after = set(json.loads(mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")))
        assert after - before == USER_FACING_GLOBALS
        # No global lexical bindings either: the runtime's own names stay hidden.
        hidden = ["run", "abort", "inspect", "serialize", "runState", "consoleObject", "uncurryThis"]
        assert mr.eval(f"[{', '.join(f'typeof {name}' for name in hidden)}].join()") == ",".join(["undefined"] * 7)
    finally:
        mr.close()


def test_the_engine_timer_manager_is_emptied(isolate: Isolate) -> None:
    assert isolate.mr.eval("typeof __timer_manager") == "undefined"


def test_input_is_not_defined_before_a_run(isolate: Isolate) -> None:
    assert isolate.mr.eval("typeof input") == "undefined"
    assert isolate.mr.eval("'input' in globalThis") is False


def test_console_and_timer_globals_are_the_runtimes(isolate: Isolate) -> None:
    kinds = isolate.mr.eval(
        "[typeof console.log, typeof console.table, typeof setTimeout, typeof setInterval,"
        " typeof clearInterval, typeof queueMicrotask, typeof structuredClone].join()"
    )
    assert kinds == ",".join(["function"] * 7)


def test_the_runtime_source_is_ascii_so_v8_takes_it_without_conversion() -> None:
    assert source().isascii()


# The functions a plain run never calls are compiled by groups, on first use (js_runtime/deferral.py).
def loaded(isolate: Isolate) -> set[str]:
    text = isolate.api["deferredLoaded"]()
    assert isinstance(text, str)
    return set(text.split(",")) - {""}


@pytest.mark.parametrize("code", ["1+1", "2n ** 70n", "let x = 1", "null", "0.1 * 3"])
def test_the_warm_up_and_a_job_with_a_primitive_result_compile_no_deferred_group(isolate: Isolate, code: str) -> None:
    # What every isolate runs (the warm-up, then a job that ends with a number and writes nothing) finds all it
    # calls in the script: a function of it in a group would make each fresh isolate compile that group.
    assert isolate.api["warmUp"]() == ""
    outcome = json.loads(isolate.api["run"](code, "", "{}"))
    assert outcome["ok"] is True, outcome
    assert loaded(isolate) == set()


@pytest.mark.parametrize(
    ("code", "groups"),
    [
        ("'text'", {"outcome", "text"}),
        ("console.log('hi'); 1", {"console", "outcome"}),
        ("({ a: 1 })", {"outcome", "render", "text"}),
        ("throw new Error('no')", {"errors", "outcome"}),
        ("await 1", {"async"}),
        ("structuredClone(1)", {"clone"}),
    ],
)
def test_a_job_compiles_the_groups_of_what_it_does(isolate: Isolate, code: str, groups: set[str]) -> None:
    assert isolate.api["warmUp"]() == ""
    outcome = isolate.api["run"](code, "", "{}")
    if outcome == "":
        outcome = isolate.delivered.get(timeout=10)[0]
    assert json.loads(outcome)["ok"] is ("throw" not in code)
    assert loaded(isolate) == groups


CALLS_THAT_RENDER_NO_OBJECT = [
    "1+1",
    "'text'",
    "2n ** 70n",
    "-0",
    "null",
    "undefined",
    "console.log('total', 42, true, null, undefined, 3n); 1",
    "console.error('x'); console.info(-0)",
    "console.log('%s! %d %j', 'hi', 4.5, 'q'); 1",
    "await Promise.resolve(5)",
    "setTimeout(() => console.log('later'), 1); 'now'",
]


@pytest.mark.parametrize("code", CALLS_THAT_RENDER_NO_OBJECT)
def test_a_call_that_renders_no_object_does_not_compile_the_rendering_code(isolate: Isolate, code: str) -> None:
    outcome = isolate.run(code)
    assert outcome["ok"] is True, outcome
    assert "render" not in loaded(isolate)


@pytest.mark.parametrize(
    ("code", "stdout", "result"),
    [
        ("({ a: [1, 2], b: new Map([[1, 'x']]) })", "", "{ a: [ 1, 2 ], b: Map(1) { 1 => 'x' } }"),
        ("console.log('%o!', [1]); 0", "[ 1, [length]: 1 ]!\n", "0"),
        ("console.log({ n: 1 }); 0", "{ n: 1 }\n", "0"),
        ("console.table([{ a: 1 }]); 0", "\u250c", "0"),
        ("'a\\n'.repeat(60)", "", None),
    ],
)
def test_a_call_that_renders_an_object_compiles_it_and_renders_as_before(
    isolate: Isolate, code: str, stdout: str, result: str | None
) -> None:
    outcome = isolate.run(code)
    assert outcome["ok"] is True, outcome
    assert outcome["stdout"].startswith(stdout)
    if result is not None:
        assert outcome["resultText"] == result
    else:
        assert outcome["resultText"].startswith("'a\\n' +\n  'a\\n' +")
    assert "render" in loaded(isolate)


def test_the_rendering_code_compiled_after_the_code_replaced_globals_uses_the_engine_built_ins(
    isolate: Isolate,
) -> None:
    # Everything the rendering code names was captured when the runtime loaded: replacing or deleting globals,
    # prototypes' methods and a species getter before its first use changes nothing it shows.
    code = """
    const keep = { Map, Promise };
    Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('species read'); } });
    Symbol.for = () => { throw new Error('Symbol.for called'); };
    String.prototype.normalize = () => { throw new Error('normalize called'); };
    Object.prototype.toString = () => 'forged';
    Array.prototype.join = () => 'forged';
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (name !== 'console' && name !== 'globalThis') { try { delete globalThis[name]; } catch {} }
    }
    globalThis.eval = () => 'forged eval';
    console.log([1, 'two', { three: 3 }], new keep.Map([['k', keep.Promise.resolve(4)]]));
    console.table([{ a: '\u00e9' }]);
    ({ nested: { list: [1, 2, 3] } })
    """
    outcome = isolate.run(code)
    assert outcome["ok"] is True, outcome
    lines = outcome["stdout"].splitlines()
    assert lines[0] == "[ 1, 'two', { three: 3 } ] Map(1) { 'k' => Promise { 4 } }"
    assert "\u2502 (index) \u2502 a   \u2502" in outcome["stdout"]
    assert outcome["resultText"] == "{ nested: { list: [ 1, 2, 3 ] } }"
    assert {"render", "table"} <= loaded(isolate)
