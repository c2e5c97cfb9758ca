"""The runtime's short way to the outcome of a primitive result gives the bytes its general way gives.

``primitiveOutcome`` (js_runtime/run.js) writes the outcome of a run that ended with a number, boolean, bigint,
null or undefined and wrote nothing else. Every corpus snippet whose answer does not change from run to run, and
values chosen for their edges, run through the worker's own code twice: in the runtime as it is, and in the runtime
with that short way taken out; the outcomes must be equal, field for field and in the same order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import js_runtime
from sandbox_server.sandbox import SandboxLimits
from sandbox_server.sandbox.worker import isolate as isolate_module
from sandbox_server.sandbox.worker import job
from sandbox_server.sandbox.worker import options as options_module

SNIPPETS = Path(__file__).resolve().parent.parent / "corpus" / "snippets"
SHORT_WAY = "const plain = primitiveOutcome();"

EDGE_CASES = [
    "1+1",
    "-0",
    "0",
    "NaN",
    "Infinity",
    "-Infinity",
    "0.1 + 0.2",
    "1e21",
    "5e-324",
    "-1.7976931348623157e308",
    "2 ** 53 + 1",
    "true",
    "false",
    "null",
    "undefined",
    "void 0",
    "let x = 1",
    "2n ** 64n",
    "-(2n ** 3000n)",
    "10n ** 1100n",
    "0n",
    "await Promise.resolve(42)",
    "await new Promise((resolve) => setTimeout(() => resolve(7), 1))",
    "return 5",
    "console.log('x'); 1",
    "console.error('x'); true",
    "console.log(); 1",
    "process.stdout.write(''); 3",
    "queueMicrotask(() => console.log('late')); 4",
    "setTimeout(() => console.log('later'), 1); 5",
    "Promise.resolve().then(() => console.log('then')); 6",
    "throw 1",
    "'text'",
    "Symbol('s')",
    "({})",
    "[1]",
    'display(\'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\'); 1',
    "const n: number = 3; n",
]


def _corpus() -> list[tuple[str, str, str]]:
    """The snippets whose answer does not change from run to run (those checked by a pattern read the clock)."""
    cases = []
    for path in sorted(SNIPPETS.glob("*/*")):
        if path.suffix not in {".js", ".ts"}:
            continue
        expected = json.loads((path.parent / "expected.json").read_text()).get(path.stem, {})
        if "stdoutPattern" in expected or "resultPattern" in expected:
            continue
        input_file = path.with_name(path.stem + ".input.json")
        input_json = json.dumps(json.loads(input_file.read_text())) if input_file.exists() else ""
        cases.append((f"{path.parent.name}/{path.name}", path.read_text(), input_json))
    return cases


CORPUS = _corpus()


async def outcomes_of(
    cases: list[tuple[str, str, str]],
    limits: SandboxLimits,
    before: Callable[[isolate_module.Isolate], Awaitable[None]] | None = None,
) -> list[dict[str, Any]]:
    """Each case's outcome (without its duration) in a fresh isolate, after ``before`` with that isolate."""
    outcomes = []
    for _name, code, input_json in cases:
        isolate = await isolate_module.Isolate.prepare(limits)
        try:
            if before is not None:
                await before(isolate)
            request = {"id": 1, "code": code, "input": input_json, "timeoutMs": 10_000}
            outcome = dict(await job.execute(isolate, request, limits))
        finally:
            isolate.close()
        outcome.pop("durationMs", None)
        outcomes.append(outcome)
    return outcomes


def _both_ways(
    cases: list[tuple[str, str, str]], monkeypatch: pytest.MonkeyPatch, limits: SandboxLimits
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    # The same entropy for both ways, so that random values come out the same.
    monkeypatch.setattr(options_module.os, "urandom", lambda size: bytes(range(size)))
    runtime = js_runtime.source()
    assert runtime.count(SHORT_WAY) == 1
    short = asyncio.run(outcomes_of(cases, limits))
    general = runtime.replace(SHORT_WAY, "const plain = undefined;")
    monkeypatch.setattr(isolate_module.js_runtime, "source", lambda: general)
    return short, asyncio.run(outcomes_of(cases, limits))


def _compare(cases: list[tuple[str, str, str]], short: list[dict[str, Any]], general: list[dict[str, Any]]) -> None:
    for (name, _code, _input), one, other in zip(cases, short, general, strict=True):
        assert list(one.items()) == list(other.items()), name


def test_the_corpus_gives_the_same_outcomes_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(CORPUS) >= 150
    short, general = _both_ways(CORPUS, monkeypatch, SandboxLimits())
    _compare(CORPUS, short, general)
    # The corpus reaches the short way (a number, no output) and passes by it (output, strings, objects).
    plain = [one for one in short if one.get("resultType") in ("number", "bigint", "boolean") and not one["stdout"]]
    assert len(plain) >= 10
    assert len(short) - len(plain) >= 100


@pytest.mark.parametrize("cap", [65_536, 2_048, 2_047, 100])
def test_edge_values_give_the_same_outcomes_either_way_whatever_the_output_cap(
    monkeypatch: pytest.MonkeyPatch, cap: int
) -> None:
    cases = [(code, code, "") for code in EDGE_CASES]
    short, general = _both_ways(cases, monkeypatch, SandboxLimits(output_cap_bytes=cap))
    _compare(cases, short, general)
    by_code = dict(zip(EDGE_CASES, short, strict=True))
    assert by_code["-0"]["resultText"] == "-0" and by_code["-0"]["result"] == 0
    assert by_code["NaN"]["result"] == "NaN"
    assert "result" not in by_code["undefined"]
    if cap == 100:
        # A small cap shortens the long bigint's text: the general way decides that.
        assert by_code["-(2n ** 3000n)"]["truncated"] is True
