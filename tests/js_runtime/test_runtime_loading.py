"""Loading the runtime: what the script evaluates to and what it leaves in the global scope."""

from __future__ import annotations

import json
from pathlib import Path

from isolate_harness import Isolate
from py_mini_racer import JSFunction, MiniRacer

import js_runtime
from js_runtime import SCRIPT_NAME, source, web_modules

WEB_GLOBALS = {name for names, _source in web_modules().values() for name in names}
USER_FACING_GLOBALS = {"setInterval", "clearInterval", "queueMicrotask", "structuredClone", *WEB_GLOBALS}


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


def test_the_runtime_evaluates_to_an_object_of_its_entry_points(isolate: Isolate) -> None:
    assert sorted(isolate.api.keys()) == ["abort", "abortMemory", "connect", "expose", "run"]
    for name in ("abort", "abortMemory", "connect", "expose", "run"):
        assert isinstance(isolate.api[name], JSFunction)


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
