"""Timers: the engine's quirks fixed, and a run that ends only when no timer is pending."""

from __future__ import annotations

import pytest
from isolate_harness import Isolate, RunJs


@pytest.mark.parametrize(
    "call",
    [
        pytest.param("setTimeout(fire, 0)", id="zero-delay"),
        pytest.param("setTimeout(fire)", id="no-delay"),
        pytest.param("setTimeout(fire, -5)", id="negative-delay"),
        pytest.param("setTimeout(fire, NaN)", id="nan-delay"),
        pytest.param("setTimeout(fire, '2')", id="string-delay"),
    ],
)
def test_a_timeout_fires_whatever_its_delay(run_js: RunJs, call: str) -> None:
    outcome = run_js(f"function fire() {{ console.log('fired') }}\n{call};\n'sync'")
    assert outcome["stdout"] == "fired\n"
    assert outcome["resultText"] == "'sync'"


def test_timeouts_fire_in_order_of_their_delays(run_js: RunJs) -> None:
    outcome = run_js(
        "setTimeout(() => console.log('b'), 20); setTimeout(() => console.log('a'), 2); console.log('sync')"
    )
    assert outcome["stdout"] == "sync\na\nb\n"


def test_extra_arguments_are_passed_to_the_callback(run_js: RunJs) -> None:
    assert run_js("setTimeout((a, b) => console.log(a + b), 1, 2, 3)")["stdout"] == "5\n"


def test_timer_ids_are_distinct_numbers(run_js: RunJs) -> None:
    outcome = run_js("const a = setTimeout(() => {}, 1); const b = setTimeout(() => {}, 1); [typeof a, a !== b]")
    assert outcome["result"] == ["number", True]


def test_a_cleared_timeout_never_fires_and_does_not_hold_the_run(run_js: RunJs) -> None:
    outcome = run_js("const id = setTimeout(() => console.log('no'), 5000); clearTimeout(id); 'done'")
    assert outcome["stdout"] == ""
    assert outcome["resultText"] == "'done'"


def test_an_interval_repeats_until_cleared_and_the_run_waits_for_it(run_js: RunJs) -> None:
    code = (
        "let n = 0;\n"
        "const id = setInterval(() => {\n  n++;\n  console.log('tick', n);\n  if (n === 3) clearInterval(id);\n}, 1);"
    )
    outcome = run_js(code)
    assert outcome["stdout"] == "tick 1\ntick 2\ntick 3\n"


def test_clear_interval_and_clear_timeout_accept_each_others_ids(run_js: RunJs) -> None:
    outcome = run_js(
        "const t = setTimeout(() => console.log('t'), 5); clearInterval(t);"
        " const i = setInterval(() => console.log('i'), 5); clearTimeout(i); 1"
    )
    assert outcome["stdout"] == ""


def test_the_run_waits_for_timers_set_by_timers(run_js: RunJs) -> None:
    outcome = run_js("setTimeout(() => setTimeout(() => console.log('nested'), 3), 3)")
    assert outcome["stdout"] == "nested\n"


def test_a_result_is_reported_after_timers_drain(run_js: RunJs) -> None:
    outcome = run_js("const log = []; setTimeout(() => { log.push('timer'); console.log(log) }, 5); log")
    assert outcome["stdout"] == "[ 'timer' ]\n"
    assert outcome["result"] == ["timer"]


def test_a_non_function_callback_is_a_type_error_at_the_call(run_js: RunJs) -> None:
    error = run_js("setTimeout('code string', 1)")["error"]
    assert (error["name"], error["line"]) == ("TypeError", 1)


def test_queue_microtask_runs_before_timers(run_js: RunJs) -> None:
    outcome = run_js("setTimeout(() => console.log('timer'), 0); queueMicrotask(() => console.log('micro')); 1")
    assert outcome["stdout"] == "micro\ntimer\n"


def test_awaiting_a_timer_promise_in_async_mode_works(run_js: RunJs) -> None:
    code = (
        "const sleep = ms => new Promise(r => setTimeout(r, ms));\nawait sleep(5);\nconsole.log('slept');\nreturn 'ok'"
    )
    outcome = run_js(code)
    assert (outcome["stdout"], outcome["result"]) == ("slept\n", "ok")


def test_the_runtime_timers_survive_a_replaced_promise_prototype(run_js: RunJs) -> None:
    code = (
        "Promise.prototype.then = () => { throw new Error('tampered') };\n"
        "setTimeout(() => console.log('still fires'), 1);"
    )
    assert run_js(code)["stdout"] == "still fires\n"


def test_pending_timers_are_stopped_when_the_run_ends(isolate: Isolate) -> None:
    outcome = isolate.run("setTimeout(() => { throw new Error('first') }, 1); setInterval(() => console.log('x'), 1)")
    assert outcome["error"]["message"] == "first"
    assert isolate.mr.eval("1 + 1") == 2
