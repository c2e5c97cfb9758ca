"""Output caps: bounded capture, head and tail kept, exact omitted byte counts, abort."""

from __future__ import annotations

import json
import re

import pytest
from isolate_harness import Isolate, Outcome, RunJs
from py_mini_racer import JSTimeoutException

MARKER = re.compile(r"\n\.\.\. \[(\d+) bytes omitted\] \.\.\.\n")


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8"))


def shown_size(outcome: Outcome) -> int:
    return sum(utf8_size(outcome[key] or "") for key in ("stdout", "stderr", "resultText"))


def kept_and_omitted(text: str) -> tuple[int, int]:
    """Bytes of original content kept in a capped text, and bytes its marker says are missing."""
    marker = MARKER.search(text)
    assert marker is not None, "expected an omission marker"
    return utf8_size(text) - utf8_size(marker.group(0)), int(marker.group(1))


def test_a_million_bytes_of_log_lines_keep_head_and_tail_within_the_cap(run_js: RunJs) -> None:
    outcome = run_js("for (let i = 0; i < 100000; i++) console.log('line ' + i)", output_cap=2000)
    stdout = outcome["stdout"]
    total = sum(utf8_size(f"line {i}\n") for i in range(100000))
    kept, missing = kept_and_omitted(stdout)
    assert stdout.startswith("line 0\nline 1\n")
    assert stdout.endswith("line 99998\nline 99999\n")
    assert utf8_size(stdout) <= 2000
    assert kept + missing == total
    assert outcome["omittedBytes"] == missing
    assert outcome["truncated"] is True


def test_one_huge_log_line_is_cut_to_head_and_tail(run_js: RunJs) -> None:
    outcome = run_js("console.log('a' + 'x'.repeat(5e7) + 'z')", output_cap=1000)
    kept, missing = kept_and_omitted(outcome["stdout"])
    assert outcome["stdout"].startswith("axxx")
    assert outcome["stdout"].endswith("xxz\n")
    assert kept + missing == 50_000_003
    assert outcome["omittedBytes"] == missing


def test_a_100_megabyte_string_result_is_rendered_as_node_cuts_it_within_the_cap(run_js: RunJs) -> None:
    outcome = run_js("'<' + 'y'.repeat(1e8) + '>'", output_cap=4096)
    text = outcome["resultText"]
    kept, missing = kept_and_omitted(text)
    assert text.startswith("'<yyy")
    assert text.endswith("'... 99990002 more characters")
    assert utf8_size(text) <= 4096
    assert kept <= 4096 < kept + missing
    assert "result" not in outcome
    # Left out: part of the rendering, cut to the cap, and the whole structured form.
    assert outcome["omittedBytes"] >= missing + 100_000_004


def test_a_huge_string_nested_in_a_result_is_elided_and_counted(run_js: RunJs) -> None:
    outcome = run_js("({ big: 'q'.repeat(3e6), small: 1 })", output_cap=5000)
    assert utf8_size(outcome["resultText"]) <= 5000
    assert outcome["resultText"].startswith("{\n  big: 'qqq")
    json_size = utf8_size('{"big":"","small":1}') + 3_000_000
    # The rendering cuts the string after 10,000 characters as Node does and says how many more there were;
    # the cap then keeps about 5000 bytes of that rendering. The structured copy is left out whole.
    assert "'... 2990000 more characters" in outcome["resultText"]
    assert json_size + 10_000 - 5000 <= outcome["omittedBytes"] <= json_size + 10_100
    assert outcome["truncated"] is True
    assert outcome["resultShortened"] is True


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("console.log('o'.repeat(9000)); console.error('e'.repeat(9000)); 'r'.repeat(9000)", id="all-big"),
        pytest.param("console.log('o'.repeat(9000)); 'small'", id="stdout-big"),
        pytest.param("console.error('é'.repeat(9000)); 1", id="stderr-big-two-byte"),
        pytest.param("console.log('😀'.repeat(9000)); console.error('😀'.repeat(9000))", id="four-byte"),
    ],
)
def test_stdout_stderr_and_result_text_together_fit_the_cap(run_js: RunJs, code: str) -> None:
    outcome = run_js(code, output_cap=3001)
    assert shown_size(outcome) <= 3001
    assert outcome["truncated"] is True


def test_small_streams_are_kept_whole_when_another_is_cut(run_js: RunJs) -> None:
    outcome = run_js("console.error('warning!'); console.log('x'.repeat(100000)); 'done'", output_cap=2000)
    assert outcome["stderr"] == "warning!\n"
    assert outcome["resultText"] == "'done'"
    left = 2000 - utf8_size("warning!\n") - utf8_size("'done'")
    # The marker is sized for the largest count it could hold, so a byte may stay unused.
    assert left - 1 <= utf8_size(outcome["stdout"]) <= left


def test_a_cut_never_splits_a_surrogate_pair(run_js: RunJs) -> None:
    outcome = run_js("console.log('a' + '😀'.repeat(5000)); '😀'.repeat(5000)", output_cap=1001)
    for key in ("stdout", "resultText"):
        outcome[key].encode("utf-8")  # a lone surrogate would not encode
        assert "😀" in outcome[key]


def test_output_under_the_cap_is_not_truncated(run_js: RunJs) -> None:
    outcome = run_js("console.log('fits')", output_cap=100)
    assert (outcome["stdout"], outcome["truncated"], outcome["omittedBytes"]) == ("fits\n", False, 0)


def test_a_zero_cap_keeps_nothing_and_counts_everything(run_js: RunJs) -> None:
    outcome = run_js("console.log('abc'); 'r'", output_cap=0)
    assert (outcome["stdout"], outcome["resultText"]) == ("", "")
    assert outcome["omittedBytes"] == len("abc\n") + len("'r'") + len('"r"')


def test_abort_after_a_timeout_returns_the_output_printed_before_the_loop(isolate: Isolate) -> None:
    code = "console.log('before the loop'); console.error('warned'); while (true) {}"
    with pytest.raises(JSTimeoutException):
        isolate.api["run"](code, "", json.dumps({"outputCap": 65536}), timeout_sec=0.2)
    outcome = json.loads(isolate.api["abort"]("timeout"))
    assert outcome["ok"] is False
    assert outcome["stdout"] == "before the loop\n"
    assert outcome["stderr"] == "warned\n"
    assert outcome["resultText"] is None
    assert outcome["error"] == {
        "kind": "timeout",
        "name": None,
        "message": None,
        "line": None,
        "column": None,
        "stack": None,
    }


def test_abort_after_a_timeout_in_a_print_loop_keeps_the_output_capped(isolate: Isolate) -> None:
    code = "for (let i = 0; ; i++) console.log('spinning ' + i)"
    with pytest.raises(JSTimeoutException):
        isolate.api["run"](code, "", json.dumps({"outputCap": 1000}), timeout_sec=0.2)
    outcome = json.loads(isolate.api["abort"]("timeout"))
    assert outcome["stdout"].startswith("spinning 0\n")
    assert utf8_size(outcome["stdout"]) <= 1000
    assert outcome["omittedBytes"] > 0


def test_abort_for_memory_reports_the_memory_kind(isolate: Isolate) -> None:
    isolate.run("console.log('some output')")
    outcome = json.loads(isolate.api["abort"]("memory"))
    assert outcome["error"]["kind"] == "memory"
    assert outcome["stdout"] == "some output\n"
