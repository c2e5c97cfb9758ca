"""Errors: where they happened in the model's code, trimmed stacks, syntax errors, late errors."""

from __future__ import annotations

import pytest
from isolate_harness import RunJs


def test_a_runtime_error_reports_name_message_line_column_and_a_trimmed_stack(run_js: RunJs) -> None:
    outcome = run_js("function f() {\n  return null.x;\n}\nf();")
    assert outcome["ok"] is False
    assert outcome["resultText"] is None
    assert outcome["error"] == {
        "kind": "runtime",
        "name": "TypeError",
        "message": "Cannot read properties of null (reading 'x')",
        "line": 2,
        "column": 15,
        "stack": "TypeError: Cannot read properties of null (reading 'x')\n    at f (main.js:2:15)\n    at main.js:4:1",
    }


def test_an_error_in_async_mode_has_line_numbers_of_the_code_as_written(run_js: RunJs) -> None:
    outcome = run_js("await null;\nfunction f() {\n  throw new RangeError('deep');\n}\nf();")
    assert outcome["async"] is True
    error = outcome["error"]
    assert (error["name"], error["message"], error["line"], error["column"]) == ("RangeError", "deep", 3, 9)
    assert error["stack"] == "RangeError: deep\n    at f (main.js:3:9)\n    at main.js:5:1"


def test_an_error_after_an_await_keeps_its_line(run_js: RunJs) -> None:
    outcome = run_js("const x = 1;\nawait new Promise(r => setTimeout(r, 1));\nundefinedName + x;")
    assert (outcome["error"]["name"], outcome["error"]["line"]) == ("ReferenceError", 3)


def test_runtime_frames_are_not_in_the_stack(run_js: RunJs) -> None:
    outcome = run_js("[1].map(() => { throw new Error('boom') })")
    stack = outcome["error"]["stack"]
    assert stack.startswith("Error: boom\n    at main.js:1:23\n    at Array.map (<anonymous>)\n")
    assert "sandbox-runtime.js" not in stack
    assert "eval" not in stack


@pytest.mark.parametrize(
    ("code", "message"),
    [
        pytest.param("throw 'plain string'", "'plain string'", id="string"),
        pytest.param("throw { code: 42 }", "{ code: 42 }", id="object"),
        pytest.param("throw 7", "7", id="number"),
        pytest.param("throw null", "null", id="null"),
    ],
)
def test_a_thrown_non_error_is_uncaught_with_its_rendering_as_message(run_js: RunJs, code: str, message: str) -> None:
    error = run_js(code)["error"]
    assert error == {
        "kind": "runtime",
        "name": "Uncaught",
        "message": message,
        "line": None,
        "column": None,
        "stack": None,
    }


def test_a_parse_error_is_a_syntax_error_of_the_script_form(run_js: RunJs) -> None:
    outcome = run_js("const a = 1;\nlet b = ;")
    assert outcome["error"] == {
        "kind": "syntax",
        "name": "SyntaxError",
        "message": "Unexpected token ';'",
        "line": None,
        "column": None,
        "stack": None,
    }
    assert (outcome["syntaxMode"], outcome["async"]) == ("script", False)


def test_a_parse_error_in_code_using_await_comes_from_the_async_form(run_js: RunJs) -> None:
    outcome = run_js("const v = await 1;\nlet b = ;")
    assert outcome["error"]["kind"] == "syntax"
    assert outcome["error"]["message"] == "Unexpected token ';'"
    assert outcome["syntaxMode"] == "async"


def test_a_parse_error_prints_nothing_and_runs_nothing(run_js: RunJs) -> None:
    outcome = run_js("console.log('never');\n)")
    assert outcome["stdout"] == ""
    assert outcome["syntaxMode"] == "script"


def test_a_syntax_error_thrown_by_json_parse_is_a_runtime_error_with_its_line(run_js: RunJs) -> None:
    outcome = run_js("const text = '{bad';\nJSON.parse(text);")
    error = outcome["error"]
    assert (error["kind"], error["name"], error["line"], error["column"]) == ("runtime", "SyntaxError", 2, 6)
    assert outcome["syntaxMode"] is None


def test_a_syntax_error_thrown_by_the_code_itself_is_a_runtime_error(run_js: RunJs) -> None:
    outcome = run_js("throw new SyntaxError('made up')")
    assert (outcome["error"]["kind"], outcome["error"]["line"]) == ("runtime", 1)


def test_stack_overflow_is_an_ordinary_runtime_error(run_js: RunJs) -> None:
    error = run_js("function down(n) { return down(n + 1) }\ndown(0)")["error"]
    assert (error["kind"], error["name"], error["message"]) == (
        "runtime",
        "RangeError",
        "Maximum call stack size exceeded",
    )
    assert error["line"] == 1


def test_a_rejected_result_promise_is_a_runtime_error(run_js: RunJs) -> None:
    outcome = run_js("Promise.reject(new TypeError('rejected'))")
    assert (outcome["error"]["name"], outcome["error"]["message"], outcome["error"]["line"]) == (
        "TypeError",
        "rejected",
        1,
    )


def test_a_rejection_in_async_mode_ends_the_run_without_waiting_for_timers(run_js: RunJs) -> None:
    outcome = run_js("setTimeout(() => console.log('late'), 30);\nawait null;\nthrow new Error('early');")
    assert outcome["error"]["message"] == "early"
    assert outcome["stdout"] == ""


def test_an_error_in_a_timer_callback_is_the_runs_error_and_is_printed_like_node(run_js: RunJs) -> None:
    outcome = run_js("setTimeout(() => {\n  null.z;\n}, 1);\nsetTimeout(() => console.log('after'), 40);\n'result'")
    assert outcome["ok"] is False
    assert outcome["error"]["line"] == 2
    assert outcome["stderr"] == "Uncaught TypeError: Cannot read properties of null (reading 'z')\n    at main.js:2:8\n"
    # Node stops at an uncaught exception: the later timer never runs.
    assert outcome["stdout"] == ""
    assert outcome["resultText"] == "'result'"


def test_an_error_in_a_queued_microtask_is_reported(run_js: RunJs) -> None:
    outcome = run_js("queueMicrotask(() => { throw new Error('in microtask') }); 1")
    assert outcome["error"]["message"] == "in microtask"
    assert outcome["stderr"].startswith("Uncaught Error: in microtask\n")


def test_a_result_promise_that_can_never_settle_is_reported(run_js: RunJs) -> None:
    outcome = run_js("new Promise(() => {})")
    assert outcome["ok"] is False
    assert outcome["error"]["kind"] == "runtime"
    assert "never settled" in outcome["error"]["message"]


def test_an_error_logged_by_the_code_shows_its_trimmed_stack_and_extra_properties(run_js: RunJs) -> None:
    outcome = run_js("const e = new Error('logged');\ne.code = 'E_CODE';\nconsole.log(e);\nconsole.log({ e })")
    assert outcome["stdout"] == (
        "Error: logged\n    at main.js:1:11 {\n  code: 'E_CODE'\n}\n"
        "{\n  e: Error: logged\n      at main.js:1:11 {\n    code: 'E_CODE'\n  }\n}\n"
    )


def test_a_logged_error_in_async_mode_has_adjusted_lines(run_js: RunJs) -> None:
    outcome = run_js("await null;\nconsole.log(new Error('here'))")
    assert outcome["stdout"] == "Error: here\n    at main.js:2:13\n"


def test_error_subclasses_are_named_by_their_class(run_js: RunJs) -> None:
    outcome = run_js(
        "class ValidationError extends Error {}\nconsole.log(new ValidationError('bad').stack.split('\\n')[0]);"
        "\nnew ValidationError('bad')"
    )
    assert outcome["resultText"] == "ValidationError: bad\n    at main.js:3:1"


def test_console_trace_prints_the_call_site_to_stderr(run_js: RunJs) -> None:
    outcome = run_js("function where() {\n  console.trace('here %d', 1);\n}\nwhere();")
    assert outcome["stderr"] == "Trace: here 1\n    at where (main.js:2:11)\n    at main.js:4:1\n"
