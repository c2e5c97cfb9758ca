"""Section 23: where the time of a small call goes, per process, against the Python SDK's own floor.

Five kinds of call, on both MCP revisions: ``add`` on the smallest server the SDK makes
(:mod:`benchmarks.sdk_floor_server`), sandbox-server's ``add``, a warm session's ``1+1``, a fresh isolate's ``1+1``
and a fresh isolate's object result. Latency is measured in interleaved rounds (one call of each kind per round, so
the machine's load falls on all alike); CPU in a block of back-to-back calls per kind, read from ``/proc`` for the
client (this process), the server and its workers. Two more kinds of row split the floor: ``add`` with the client and
each server in this one process (the SDK's in-memory transport, no stdio), and a line sent to a child Python process
and back, the floor of any hop between two processes on this machine.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from benchmarks import procfs
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import CallFailed, server_env, server_parameters

__all__ = ["KINDS", "MODES", "Kind", "measure"]

MODES = ("auto", "legacy")
"""The client's modes: 2026-07-28 (the SDK client's default) and the 2025-11-25 handshake."""


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of call: its row key, its label, which server takes it, the tool and its arguments."""

    key: str
    label: str
    on_floor_server: bool
    tool: str
    arguments: dict[str, Any]


KINDS = (
    Kind("sdk_add", "`add` on the SDK's smallest server", True, "add", {"a": "1", "b": "2"}),
    Kind("add", "sandbox-server `add`", False, "add", {"a": "1", "b": "2"}),
    Kind("session", "`1+1` in a warm session", False, "execute_js", {"code": "1+1", "session": "stages"}),
    Kind("fresh", "`1+1` in a fresh isolate", False, "execute_js", {"code": "1+1"}),
    Kind("object", "`({ a: [1, 2] })` in a fresh isolate", False, "execute_js", {"code": "({ a: [1, 2] })"}),
)

_ECHO = "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"


@dataclass(slots=True)
class _Side:
    client: Client
    pid: int


@asynccontextmanager
async def _servers(mode: str) -> AsyncIterator[tuple[_Side, _Side]]:
    """The SDK's floor server and a sandbox-server, each with a client in ``mode``."""
    floor = StdioServerParameters(command=sys.executable, args=["-m", "benchmarks.sdk_floor_server"], env=server_env())
    sides = []
    async with AsyncExitStack() as stack:
        for parameters in (floor, server_parameters()):
            before = set(procfs.children(os.getpid()))
            client = await stack.enter_async_context(Client(parameters, mode=mode))
            started = [pid for pid in procfs.children(os.getpid()) if pid not in before]
            if len(started) != 1:
                raise RuntimeError(f"expected one new server process, found {started}")
            sides.append(_Side(client, started[0]))
        yield sides[0], sides[1]


_EXPECTED = {"add": "3", "execute_js": "2"}
"""What each answer must contain (``1 + 2``; ``1+1``, or the object's ``2``): a wrong answer fails the section."""


async def _call(side: _Side, kind: Kind) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    result = await side.client.call_tool(kind.tool, kind.arguments)
    elapsed = (time.perf_counter() - started) * 1000
    text = " ".join(getattr(block, "text", "") for block in result.content)
    if result.is_error or _EXPECTED[kind.tool] not in text:
        raise CallFailed(f"{kind.tool} failed or answered wrong: {text[:300]}")
    return elapsed, dict(result.structured_content or {})


async def _latency(plan: Plan, progress: Progress, floor: _Side, ours: _Side, mode: str) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {kind.key: [] for kind in KINDS}
    samples.update({f"{kind.key}.run": [] for kind in KINDS if kind.tool == "execute_js"})
    rounds = plan.latency_iterations
    bar = progress.bar(f"{mode}: {len(KINDS)} kinds x{rounds}, interleaved", plan.warmup + rounds)
    for i in range(plan.warmup + rounds):
        order = KINDS if i % 2 == 0 else tuple(reversed(KINDS))
        for kind in order:
            elapsed, outcome = await _call(floor if kind.on_floor_server else ours, kind)
            if i >= plan.warmup:
                samples[kind.key].append(elapsed)
                if kind.tool == "execute_js":
                    samples[f"{kind.key}.run"].append(float(outcome.get("durationMs", 0.0)))
        bar.advance()
    bar.close()
    return samples


async def _cpu(plan: Plan, progress: Progress, floor: _Side, ours: _Side, mode: str) -> dict[str, list[float]]:
    """CPU per call of each process, from one block of back-to-back calls per kind."""
    samples: dict[str, list[float]] = {}
    calls = plan.latency_iterations
    bar = progress.bar(f"{mode}: CPU, {len(KINDS)} blocks x{calls}", len(KINDS))
    for kind in KINDS:
        side = floor if kind.on_floor_server else ours
        client, server = time.process_time(), procfs.cpu_ms(side.pid)
        workers = procfs.tree_cpu_ms(side.pid, include_root=False)
        for _ in range(calls):
            await _call(side, kind)
        # A fresh isolate's worker prepares the next isolate after answering: let it finish, so it is counted.
        await anyio.sleep(0.3)
        samples[f"{kind.key}.client"] = [(time.process_time() - client) * 1000 / calls]
        samples[f"{kind.key}.server"] = [(procfs.cpu_ms(side.pid) - server) / calls]
        samples[f"{kind.key}.workers"] = [(procfs.tree_cpu_ms(side.pid, include_root=False) - workers) / calls]
        bar.advance()
    bar.close()
    return samples


async def _in_process(plan: Plan, progress: Progress, mode: str) -> dict[str, list[float]]:
    """``add`` with the client and each server in this one process (the SDK's in-memory transport): the SDK's
    dispatch on both ends without stdio, processes or pipes."""
    from benchmarks.sdk_floor_server import server as floor_server
    from sandbox_server.server import build_server

    samples: dict[str, list[float]] = {"sdk_add": [], "add": []}
    arguments = {"a": "1", "b": "2"}
    bar = progress.bar(f"{mode}: add in process x{plan.latency_iterations}", plan.warmup + plan.latency_iterations)
    async with Client(floor_server, mode=mode) as floor, Client(build_server(), mode=mode) as ours:
        for i in range(plan.warmup + plan.latency_iterations):
            for key, client in (("sdk_add", floor), ("add", ours)):
                started = time.perf_counter()
                result = await client.call_tool("add", arguments)
                elapsed = (time.perf_counter() - started) * 1000
                if result.is_error or "3" not in " ".join(getattr(b, "text", "") for b in result.content):
                    raise CallFailed(f"add in process failed or answered wrong: {result.content!r:.300}")
                if i >= plan.warmup:
                    samples[key].append(elapsed)
            bar.advance()
    bar.close()
    return samples


async def _pipe_round_trips(plan: Plan) -> list[float]:
    """Milliseconds of a short line to a child Python process and back, over its stdin and stdout."""
    samples = []
    async with await anyio.open_process([sys.executable, "-c", _ECHO]) as process:
        assert process.stdin is not None and process.stdout is not None
        for i in range(plan.warmup + plan.latency_iterations):
            started = time.perf_counter()
            await process.stdin.send(b'{"id": 1, "op": "ping"}\n')
            received = b""
            while not received.endswith(b"\n"):
                received += await process.stdout.receive()
            if i >= plan.warmup:
                samples.append((time.perf_counter() - started) * 1000)
        await process.stdin.aclose()
    return samples


_PROCESS_LABELS = {"client": "client CPU", "server": "server CPU", "workers": "workers' CPU"}


async def measure(plan: Plan, progress: Progress) -> Section:
    """Section 23 on both revisions."""
    progress.section("stages")
    section = Section("stages", "23. Where a call's time goes: per process, against the SDK's own floor")
    section.rows.append(Row("pipe", "a line to a child Python process and back (one hop's floor)", "ms",
                            await _pipe_round_trips(plan)))  # fmt: skip
    for mode in MODES:
        revision = "2026-07-28" if mode == "auto" else "2025-11-25"
        async with _servers(mode) as (floor, ours):
            for _ in range(plan.warmup):
                for kind in KINDS:
                    await _call(floor if kind.on_floor_server else ours, kind)
            samples = await _latency(plan, progress, floor, ours, mode)
            samples.update(await _cpu(plan, progress, floor, ours, mode))
        in_process = await _in_process(plan, progress, mode)
        section.rows.append(Row(f"{mode}.inproc.sdk_add", f"{revision}: `add` on the SDK's smallest server, in process",
                                "ms", in_process["sdk_add"]))  # fmt: skip
        section.rows.append(Row(f"{mode}.inproc.add", f"{revision}: sandbox-server `add`, in process", "ms",
                                in_process["add"]))  # fmt: skip
        section.compare(f"{mode}.inproc.add", f"{mode}.inproc.sdk_add", short="SDK floor in process")
        for kind in KINDS:
            key = f"{mode}.{kind.key}"
            section.rows.append(Row(key, f"{revision}: {kind.label}, latency", "ms", samples[kind.key]))
            if kind.key != "sdk_add":
                section.compare(key, f"{mode}.sdk_add", short="SDK floor")
            if kind.tool == "execute_js":
                section.rows.append(Row(f"{key}.run", f"{revision}: {kind.label}, run in the worker (durationMs)",
                                        "ms", samples[f"{kind.key}.run"]))  # fmt: skip
            for process, label in _PROCESS_LABELS.items():
                if process == "workers" and kind.tool != "execute_js":
                    continue
                section.rows.append(
                    Row(f"{key}.{process}", f"{revision}: {kind.label}, {label} per call", "ms",
                        samples[f"{kind.key}.{process}"])
                )  # fmt: skip
    section.notes.append(
        "Latency: medians of interleaved rounds. CPU: user + system time from /proc over one block of back-to-back "
        "calls per kind (client: this process; server: the server's process; workers: its descendants, the chart "
        "renderer included). A fresh isolate's workers' CPU includes preparing the next isolate after the answer; "
        "a session's includes reading its heap after the answer. The SDK's floor server is mcp's MCPServer with one "
        "tool and nothing else: what any Python MCP server pays."
    )
    return section
