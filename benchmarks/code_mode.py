"""Sections 12 and 13: one upstream tool call made from JavaScript against the same call made directly, and calls/s.

The upstream server is the repository's test server ``tests/upstream/servers/records.py`` over stdio, given to a
sandbox-server of its own through ``--upstream`` (``SANDBOX_UPSTREAM``, a temporary ``mcpServers`` file). The
baseline is a second, direct MCP client session to another process of the same records server: the call a client
makes when it calls the tool itself. Section 14 (:mod:`benchmarks.tokens`) uses the same pair of connections.

``python -m benchmarks --only code_mode [--quick]`` runs sections 12 to 14 alone.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import CallFailed, RunningServer, running_server, server_env
from sandbox_server.settings import DEFAULT_MAX_CALLS_IN_FLIGHT

__all__ = [
    "BATCHES",
    "BRIDGE_TARGET_MS",
    "CALL_ROWS",
    "OVER_DIRECT",
    "PAUSE_S",
    "SEQUENTIAL_CALLS",
    "TOOL",
    "CodeModeServers",
    "code_mode_servers",
    "measure_call",
    "measure_throughput",
    "parallel_code",
    "sequential_code",
    "text_of",
]

ROOT = Path(__file__).resolve().parents[1]
RECORDS_MODULE = "tests.upstream.servers.records"
TOOL = "execute_js_with_tools"
SEQUENTIAL_CALLS = 20
"""``await`` calls one after another in one execution, for the marginal cost of a call."""
BATCHES = (8, 32)
"""Calls per execution in the throughput section; within the default ``max_tool_calls`` (50)."""


def sequential_code(calls: int) -> str:
    """``calls`` awaited one after another; the result is the sum of the ids, which the benchmark checks."""
    return (
        f"let sum = 0;\nfor (let i = 1; i <= {calls}; i++) {{\n"
        "  sum += (await tools.records.get_record({ id: i })).record.id;\n}\nsum"
    )


def parallel_code(calls: int) -> str:
    """``calls`` started together and awaited with ``Promise.all``; the same result as :func:`sequential_code`."""
    return (
        f"const found = await Promise.all(Array.from({{ length: {calls} }}, (_, i) => "
        "tools.records.get_record({ id: i + 1 })));\nfound.reduce((sum, r) => sum + r.record.id, 0)"
    )


def text_of(result: types.CallToolResult) -> str:
    """The text blocks of a tool result, joined: what a client shows the model."""
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


@dataclass(slots=True)
class CodeModeServers:
    """A sandbox-server with the records server upstream, and a direct client session to a records server."""

    sandbox: RunningServer
    direct: Client

    async def call_direct(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """Call a records tool directly; raises CallFailed on an error result."""
        result = await self.direct.call_tool(name, arguments)
        if result.is_error:
            raise CallFailed(f"records.{name} failed: {text_of(result)[:500]}")
        return result

    async def run_js(self, code: str) -> tuple[float, dict[str, Any]]:
        """Milliseconds of one ``execute_js_with_tools`` call end to end, and its outcome (checked to be ok)."""
        started = time.perf_counter()
        outcome = await self.sandbox.call(TOOL, {"code": code})
        elapsed = (time.perf_counter() - started) * 1000
        if not outcome.get("ok") or any(call["outcome"] != "ok" for call in outcome.get("toolCalls", [])):
            raise CallFailed(f"{TOOL} did not run cleanly: {json.dumps(outcome)[:500]}")
        return elapsed, outcome


def records_parameters() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", RECORDS_MODULE], cwd=str(ROOT))


def write_upstream_config(folder: Path) -> Path:
    path = folder / "upstream.json"
    entry = {"command": sys.executable, "args": ["-m", RECORDS_MODULE], "cwd": str(ROOT)}
    path.write_text(json.dumps({"mcpServers": {"records": entry}}), encoding="utf-8")
    return path


@asynccontextmanager
async def code_mode_servers() -> AsyncIterator[CodeModeServers]:
    """Start both connections; they stop when the block ends."""
    if not (ROOT / "tests" / "upstream" / "servers" / "records.py").is_file():
        raise FileNotFoundError(f"the records test server is not in {ROOT / 'tests'}: run from a source checkout")
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-upstream-") as directory:
        config = write_upstream_config(Path(directory))
        async with (
            running_server(SANDBOX_UPSTREAM=str(config)) as sandbox,
            Client(records_parameters(), mode="legacy") as direct,
        ):
            yield CodeModeServers(sandbox, direct)


def _check_sum(outcome: dict[str, Any], calls: int) -> None:
    expected = calls * (calls + 1) // 2
    if outcome.get("result") != expected or len(outcome.get("toolCalls", [])) != calls:
        raise CallFailed(f"expected {calls} calls summing ids to {expected}, got {json.dumps(outcome)[:300]}")


CALL_ROWS = (
    "direct",
    "zero",
    "one",
    "one_upstream",
    "floor",
    "sequential",
    "first",
    "marginal",
    "first_over_direct",
    "marginal_over_direct",
    "zero_paused",
    "one_paused",
    "first_paused_over_direct",
)
"""Section 12's rows, in order."""
OVER_DIRECT = ("first_over_direct", "marginal_over_direct", "first_paused_over_direct")
"""The rows that are differences from the direct call (which may be below zero), not times."""
BRIDGE_TARGET_MS = 1.0
"""What an upstream call made from JavaScript may cost over the same call made directly with the SDK."""
PAUSE_S = 0.05
"""The pause before each of the section's paused runs: a model's calls come seconds apart, and a worker prepares its
next isolate (for code mode too, when it has run such jobs) while nothing waits for it."""


async def measure_call(plan: Plan, progress: Progress, servers: CodeModeServers) -> Section:
    """Section 12: the kinds of call interleaved iteration by iteration, so that drift affects them alike.

    The runs with none, one and :data:`SEQUENTIAL_CALLS` calls are the same program (:func:`sequential_code`), its loop
    run that many times, so that the first call's cost is the one-call run less the run without a call, and a
    further call's is the difference per call between the one-call and the many-call runs; each is set against the
    direct call of the same iteration. The runs follow each other at once, as a client looping over calls sends
    them; the none and one-call runs are also made each after a pause of :data:`PAUSE_S`, as a model's come.
    """
    progress.section("code mode: one upstream call")
    section = Section("code_mode_call", "12. Code mode: one upstream tool call, from JavaScript and directly")
    warmup, iterations = max(1, plan.warmup // 4), max(3, plan.latency_iterations // 5)
    n = SEQUENTIAL_CALLS
    keys = CALL_ROWS
    samples: dict[str, list[float]] = {key: [] for key in keys}
    bar = progress.bar("code mode calls", warmup + iterations)
    for i in range(warmup + iterations):
        started = time.perf_counter()
        await servers.call_direct("get_record", {"id": 1})
        direct = (time.perf_counter() - started) * 1000
        zero, none_made = await servers.run_js(sequential_code(0))
        _check_sum(none_made, 0)
        one, outcome = await servers.run_js(sequential_code(1))
        _check_sum(outcome, 1)
        floor, _ = await servers.sandbox.timed_execute(ONE_PLUS_ONE)
        sequential, many = await servers.run_js(sequential_code(n))
        _check_sum(many, n)
        await anyio.sleep(PAUSE_S)
        zero_paused, none_made = await servers.run_js(sequential_code(0))
        _check_sum(none_made, 0)
        await anyio.sleep(PAUSE_S)
        one_paused, outcome_paused = await servers.run_js(sequential_code(1))
        _check_sum(outcome_paused, 1)
        if i >= warmup:
            first, marginal = one - zero, (sequential - one) / (n - 1)
            measured = (
                direct,
                zero,
                one,
                float(outcome["toolCalls"][0]["durationMs"]),
                floor,
                sequential,
                first,
                marginal,
                first - direct,
                marginal - direct,
                zero_paused,
                one_paused,
                one_paused - zero_paused - direct,
            )
            for key, value in zip(keys, measured, strict=True):
                samples[key].append(value)
        bar.advance()
    bar.close()
    labels = {
        "direct": "records `get_record` called directly by an MCP client over stdio",
        "zero": f"{TOOL}, the program below with no call (its loop runs 0 times), whole call",
        "one": f"{TOOL}, one `await tools.records.get_record({{ id }})`, whole call",
        "one_upstream": "of which the upstream call, as the server timed it (`toolCalls[0].durationMs`)",
        "floor": "execute_js `1+1` on the same server (the sandbox's floor)",
        "sequential": f"{TOOL}, {n} `await` get_record calls one after another, whole call",
        "first": "the first call: one call less no call",
        "marginal": f"each further call: ({n} calls - 1 call) / {n - 1}",
        "first_over_direct": "the first call less the direct call",
        "marginal_over_direct": "each further call less the direct call",
        "zero_paused": f"the run with no call, after a {PAUSE_S * 1000:g} ms pause",
        "one_paused": f"the run with one call, after a {PAUSE_S * 1000:g} ms pause",
        "first_paused_over_direct": "the first call, the two runs above, less the direct call",
    }
    notes = {
        "first": "computed per iteration",
        "marginal": "computed per iteration",
        "first_over_direct": f"per iteration; target at most {BRIDGE_TARGET_MS:g} ms",
        "marginal_over_direct": f"per iteration; target at most {BRIDGE_TARGET_MS:g} ms",
        "first_paused_over_direct": f"per iteration; target at most {BRIDGE_TARGET_MS:g} ms",
    }
    for key in keys:
        section.rows.append(Row(key, labels[key], "ms", samples[key], note=notes.get(key, "")))
        if key not in ("direct", *OVER_DIRECT):
            section.compare(key, "direct", short="direct get_record")
    first, marginal, paused = (section.row(key) for key in OVER_DIRECT)
    if first and marginal and paused:
        met = "met" if max(first.median, marginal.median, paused.median) <= BRIDGE_TARGET_MS else "missed"
        section.notes.append(
            f"An upstream call made from JavaScript costs {first.median:.2f} ms (the first of a run, runs back to "
            f"back), {paused.median:.2f} ms (the first of a run, after a pause) and {marginal.median:.2f} ms (each "
            f"further one) more than the direct call, medians of per-iteration differences (target at most "
            f"{BRIDGE_TARGET_MS:g} ms: {met})."
        )
    section.notes.append(
        "Every row is timed at the client, the upstream row inside the server. The direct client and the sandbox's "
        "upstream connection each talk to their own records server process over stdio."
    )
    return section


def _in_flight() -> str:
    return server_env().get("SANDBOX_MAX_CALLS_IN_FLIGHT", str(DEFAULT_MAX_CALLS_IN_FLIGHT))


async def measure_throughput(plan: Plan, progress: Progress, servers: CodeModeServers) -> Section:
    """Section 13: upstream calls per second inside one execution, with Promise.all and one after another."""
    progress.section("code mode: calls/s with Promise.all")
    section = Section("code_mode_throughput", "13. Code mode: upstream calls per second inside one execution")
    warmup, iterations = max(1, plan.warmup // 4), max(3, plan.work_iterations)
    kinds = [(kind, calls) for calls in BATCHES for kind in ("parallel", "sequential")]
    rates: dict[str, list[float]] = {f"{kind}_{calls}": [] for kind, calls in kinds}
    whole: dict[str, list[float]] = {key: [] for key in rates}
    bar = progress.bar("Promise.all", warmup + iterations)
    for i in range(warmup + iterations):
        for kind, calls in kinds:
            code = parallel_code(calls) if kind == "parallel" else sequential_code(calls)
            elapsed, outcome = await servers.run_js(code)
            _check_sum(outcome, calls)
            if i >= warmup:
                rates[f"{kind}_{calls}"].append(calls / float(outcome["durationMs"]) * 1000)
                whole[f"{kind}_{calls}"].append(elapsed)
        bar.advance()
    bar.close()
    for kind, calls in kinds:
        key = f"{kind}_{calls}"
        how = "`Promise.all`" if kind == "parallel" else "`await` in a loop"
        note = f"whole call {statistics.median(whole[key]):.1f} ms (median)"
        section.rows.append(
            Row(key, f"{calls} get_record calls in one execution, {how}", "calls/s", rates[key], note=note)
        )
    for calls in BATCHES:
        section.compare(f"parallel_{calls}", f"sequential_{calls}", short=f"{calls} one after another")
    section.notes.append(
        f"calls/s = the calls divided by the execution's `durationMs` (inside the worker, from the start of the run to "
        f"its result). At most {_in_flight()} calls are in flight at once (`max_calls_in_flight`), so Promise.all of "
        f"{max(BATCHES)} runs in waves; a ratio above 1 is how much faster Promise.all is than awaiting one by one."
    )
    return section
