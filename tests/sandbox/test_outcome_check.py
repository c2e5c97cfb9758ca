"""The worker's check of an outcome before it leaves the process: shape, types, kinds, sizes and depth."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sandbox_server.sandbox.outcome import MAX_RESULT_DEPTH, checked_outcome, shown_bytes

CAP = 1024


def outcome(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ok": True,
        "resultText": "2",
        "result": 2,
        "resultType": "number",
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "omittedBytes": 0,
        "error": None,
        "resultShortened": False,
        "syntaxMode": None,
        "async": False,
    }
    base.update(changes)
    return base


def error(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"kind": "runtime", "name": "Error", "message": "m", "line": 1, "column": 2, "stack": None}
    base.update(changes)
    return base


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def test_a_well_formed_outcome_passes_unchanged() -> None:
    sent = outcome(stdout="hi\n", error=error(), ok=False)
    assert checked_outcome(json.dumps(sent), CAP) == sent


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(json.dumps(outcome(stdout="x" * CAP)), id="stdout-over-the-cap"),
        pytest.param(json.dumps(outcome(stdout="x" * 600, resultText="y" * 600)), id="streams-together-over-the-cap"),
        pytest.param(json.dumps(outcome(ok=False, error=error(message="m" * 700, stack="s" * 700))), id="error-fields"),
        pytest.param(json.dumps(outcome(stdout="\u00e9" * 600)), id="cap-counts-utf8-bytes"),
        pytest.param(json.dumps(outcome(error=error(kind="cancelled"))), id="unknown-error-kind"),
        pytest.param(json.dumps(outcome(error=error(extra=1))), id="extra-error-field"),
        pytest.param(json.dumps(outcome(error=error(line="1"))), id="line-not-an-integer"),
        pytest.param(json.dumps(outcome(ok="true")), id="ok-not-a-boolean"),
        pytest.param(json.dumps(outcome(omittedBytes=-1)), id="negative-omitted-bytes"),
        pytest.param(json.dumps(outcome(syntaxMode="module")), id="unknown-syntax-mode"),
        pytest.param(json.dumps(outcome(op="outcome")), id="extra-field"),
        pytest.param(json.dumps({k: v for k, v in outcome().items() if k != "stderr"}), id="missing-field"),
        pytest.param(json.dumps(outcome(result=nested(MAX_RESULT_DEPTH + 1))), id="result-too-deep"),
        pytest.param("[" * 100_000 + "]" * 100_000, id="nesting-beyond-the-parser"),
        pytest.param(json.dumps(outcome(resultText="r" * (8 * CAP + 8192))), id="longer-than-any-outcome-can-be"),
        pytest.param("not json", id="not-json"),
        pytest.param(json.dumps([outcome()]), id="not-an-object"),
        pytest.param(None, id="not-text"),
    ],
)
def test_outcomes_outside_their_shape_or_limits_are_refused(text: Any) -> None:
    assert checked_outcome(text, CAP) is None


def test_the_shown_size_counts_streams_result_and_error_fields() -> None:
    sent = outcome(stdout="ab", stderr="c", resultText="\u00e9", error=error(name="N", message="mm", stack="s"))
    assert shown_bytes(checked_outcome(json.dumps(sent), CAP) or {}) == 2 + 1 + 2 + 1 + 2 + 1  # type: ignore[arg-type]


def test_a_result_at_the_deepest_accepted_nesting_passes() -> None:
    sent = outcome(result=nested(MAX_RESULT_DEPTH))
    assert checked_outcome(json.dumps(sent), 64 * CAP) == sent


def test_a_failure_of_the_sandbox_itself_does_not_claim_a_process_was_replaced() -> None:
    from sandbox_server.sandbox.outcome import crash_error, failure_outcome, internal_error
    from sandbox_server.settings import Settings
    from sandbox_server.tools.execute_js import render_outcome

    settings = Settings()
    internal = render_outcome(dict(failure_outcome(internal_error("unreadable"), 1.0)), settings, 5000)
    assert "replaced" not in internal.text and "unreadable" in internal.text
    died = render_outcome(dict(failure_outcome(crash_error("killed by SIGSEGV"), 1.0)), settings, 5000)
    assert "replaced" in died.text
