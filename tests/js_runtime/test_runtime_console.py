"""Console methods beyond log: streams, assert, counters, timers, groups, dir options."""

from __future__ import annotations

import json
import re

import pytest
from isolate_harness import Isolate, RunJs


@pytest.mark.parametrize(
    ("code", "stdout", "stderr"),
    [
        pytest.param("console.log('o'); console.info('i'); console.debug('d')", "o\ni\nd\n", "", id="stdout-methods"),
        pytest.param("console.warn('w'); console.error('e %d', 5)", "", "w\ne 5\n", id="stderr-methods"),
        pytest.param(
            "console.assert(1 === 1, 'fine'); console.assert(false, 'bad %s', 'x'); console.assert(0)",
            "",
            "Assertion failed: bad x\nAssertion failed\n",
            id="assert",
        ),
        pytest.param("console.assert(false, { a: 1 })", "", "Assertion failed: { a: 1 }\n", id="assert-object"),
        pytest.param("console.countReset('nope')", "", "Count for 'nope' does not exist\n", id="count-reset-missing"),
        pytest.param(
            "console.timeEnd('nope')",
            "",
            "Warning: No such label 'nope' for console.timeEnd()\n",
            id="time-end-missing",
        ),
        pytest.param(
            "console.group('a'); console.warn('w1\\nw2'); console.groupEnd(); console.groupEnd(); console.warn('x')",
            "a\n",
            "  w1\n  w2\nx\n",
            id="group-indents-stderr-too",
        ),
        pytest.param(
            "console.dir({ a: { b: { c: { d: { e: { f: { g: { h: {} } } } } } } } }, { depth: null })",
            "{\n  a: {\n    b: {\n      c: {\n        d: {\n          e: { f: { g: { h: {} } } }\n"
            "        }\n      }\n    }\n  }\n}\n",
            "",
            id="dir-depth-null",
        ),
    ],
)
def test_console_methods_write_to_their_streams(run_js: RunJs, code: str, stdout: str, stderr: str) -> None:
    outcome = run_js(code)
    assert (outcome["stdout"], outcome["stderr"]) == (stdout, stderr)


def test_console_time_reports_elapsed_milliseconds(run_js: RunJs) -> None:
    code = (
        "console.time('t');\nawait new Promise(r => setTimeout(r, 5));\n"
        "console.timeLog('t', 'mid');\nconsole.timeEnd('t');"
    )
    lines = run_js(code)["stdout"].splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r"t: \d+ms mid", lines[0])
    assert re.fullmatch(r"t: \d+ms", lines[1])
    assert int(lines[1][3:-2]) >= 5


def test_console_methods_work_detached_from_the_console_object(run_js: RunJs) -> None:
    assert run_js("const { log } = console; log('detached')")["stdout"] == "detached\n"


def test_a_console_call_after_the_run_ended_does_not_change_the_outcome(isolate: Isolate) -> None:
    first = isolate.run("console.log('in run'); 1")
    isolate.mr.eval("console.log('after')")
    assert first["stdout"] == "in run\n"


def test_abort_can_be_called_without_arguments(isolate: Isolate) -> None:
    isolate.run("console.log('x')")
    outcome = json.loads(isolate.api["abort"]())
    assert (outcome["error"]["kind"], outcome["stdout"]) == ("timeout", "x\n")


def test_replacing_array_push_does_not_cut_the_worker_off(isolate: Isolate) -> None:
    outcome = isolate.run("Array.prototype.push = null;\nsetTimeout(() => console.log('timer'), 1);\n'r'")
    assert (outcome["stdout"], outcome["resultText"]) == ("timer\n", "'r'")
    # The worker calls into an isolate without arguments once code has run there: mini-racer would build the
    # argument list with the isolate's Array.prototype.push.
    assert json.loads(isolate.api["abortMemory"]())["error"]["kind"] == "memory"
