"""How the runtime loads Node's built-in modules: require with and without `node:`, subpaths, refusals."""

from __future__ import annotations

import pytest
from isolate_harness import RunJs


def result(run_js: RunJs, code: str) -> object:
    outcome = run_js(code, node=True)
    assert outcome["error"] is None, outcome
    return outcome.get("result")


def test_a_module_is_the_same_object_with_and_without_the_node_prefix(run_js: RunJs) -> None:
    assert result(run_js, "require('timers') === require('node:timers')") is True


def test_a_subpath_is_a_property_of_its_module(run_js: RunJs) -> None:
    code = (
        "require('timers/promises') === require('timers').promises && typeof require('node:timers/promises').setTimeout"
    )
    assert result(run_js, code) == "function"


def test_timers_promises_resolve_after_the_delay(run_js: RunJs) -> None:
    code = "const { setTimeout: sleep } = require('timers/promises'); const v = await sleep(5, 'late'); v"
    assert result(run_js, code) == "late"


@pytest.mark.parametrize(
    ("specifier", "code", "words"),
    [
        pytest.param("child_process", "ERR_SANDBOX_REFUSED_MODULE", "runs programs on the host", id="host"),
        pytest.param("node:http", "ERR_SANDBOX_REFUSED_MODULE", "network", id="network"),
        pytest.param("lodash", "MODULE_NOT_FOUND", "Cannot find module 'lodash'", id="package"),
        pytest.param("node:nothing", "ERR_UNKNOWN_BUILTIN_MODULE", "No such built-in module", id="unknown"),
    ],
)
def test_modules_that_would_reach_the_host_or_do_not_exist_are_refused_saying_why(
    run_js: RunJs, specifier: str, code: str, words: str
) -> None:
    outcome = run_js(f"try {{ require('{specifier}') }} catch (e) {{ [e.code, e.message] }}", node=True)
    error_code, message = outcome["result"]
    assert error_code == code
    assert words in message


def test_without_node_modules_for_the_run_there_is_no_require(run_js: RunJs) -> None:
    assert run_js("typeof require")["result"] == "undefined"
