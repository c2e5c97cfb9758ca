"""Section 8: another stdio MCP server that runs code, measured side by side with sandbox-server in the same run.

Each measurement alternates one call to the peer with the same call to a sandbox-server started for this
section, so that the machine's load affects both alike: the trivial call (and the CPU it costs each side's
processes), a 1e6-element sum, and cold start from spawning to the first result. Every ratio is
sandbox-server's median over the peer's: below 1 means sandbox-server is faster or cheaper.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import anyio
from mcp import Client, StdioServerParameters

from benchmarks import coldstart, procfs
from benchmarks.model import Row, Section
from benchmarks.peer_options import SUM_EXPECTED, Code, PeerSpec, choose_tool
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE, WORK
from benchmarks.stdio_server import CallFailed, RunningServer, running_server

__all__ = ["PEER_SESSION_TIMEOUT_S", "PeerUnavailable", "measure", "skipped"]

PEER_SESSION_TIMEOUT_S = 600.0
"""Longest a peer may take for its first start (which may fill caches) and the measurements on one connection."""
PEER_START_TIMEOUT_S = 120.0
"""Longest one measured cold start of a peer may take."""

_SUM = next(snippet.code for snippet in WORK if snippet.key == "sum")


class PeerUnavailable(RuntimeError):
    """The peer could not be started, or it has no tool that runs code."""


@dataclass(slots=True)
class _Peer:
    """A connected peer: its client, its process and the tool that runs code."""

    client: Client
    pid: int | None
    tool: str
    argument: str
    code: Code

    async def run(self, code: str) -> tuple[float, str]:
        """Milliseconds of one call of the code tool, and the text of its result."""
        started = time.perf_counter()
        result = await self.client.call_tool(self.tool, {self.argument: code})
        elapsed = (time.perf_counter() - started) * 1000
        text = " ".join(getattr(block, "text", "") for block in result.content)
        if result.is_error:
            raise CallFailed(f"{self.tool} failed: {text[:500]}")
        return elapsed, text


def _parameters(spec: PeerSpec) -> StdioServerParameters:
    return StdioServerParameters(command=spec.command[0], args=spec.command[1:])


@asynccontextmanager
async def _connected(spec: PeerSpec) -> AsyncIterator[_Peer]:
    """Start the peer, find its code tool and make one unmeasured call; the peer stops when the block ends.

    Raises:
        PeerUnavailable: Any of that failed (the command is missing, the server exits or never answers, no tool
            runs code, the first call is an error).
    """
    before = set(procfs.children(os.getpid()))
    async with AsyncExitStack() as stack:
        try:
            client = await stack.enter_async_context(Client(_parameters(spec), mode="legacy"))
            started = [pid for pid in procfs.children(os.getpid()) if pid not in before]
            listed = await client.list_tools()
            tool, argument = choose_tool(spec, [(t.name, dict(t.input_schema)) for t in listed.tools])
            peer = _Peer(client, started[0] if len(started) == 1 else None, tool, argument, spec.code(tool, argument))
            await peer.run(peer.code.trivial)
        except Exception as exc:  # whatever stops a peer from starting makes it unavailable, said in the report
            raise PeerUnavailable(_reason(exc)) from exc
        yield peer


def _reason(exc: BaseException) -> str:
    """The innermost cause of ``exc`` (task groups wrap it in exception groups), for the report."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc} (the peer's own messages, if any, are in the progress output)"


def _tree_cpu_ms(pid: int | None) -> float:
    return procfs.tree_cpu_ms(pid) if pid is not None else 0.0


def _check(notes: list[str], who: str, what: str, text: str, expected: str | None) -> None:
    if expected is not None and expected not in text:
        notes.append(f"{who}'s {what} result does not contain {expected}: {text[:200]!r}")


async def _session_and_add(
    plan: Plan, progress: Progress, peer: _Peer, server: RunningServer
) -> dict[str, list[float]]:
    """sandbox-server's ``1+1`` in a warm session and its ``add``, each call right after one of the peer's trivial
    calls (so that each follows the same kind of call), with the peer's calls of these rounds as their baseline."""
    samples: dict[str, list[float]] = {"rounds.peer": [], "session.ours": [], "add.ours": []}
    ours = (("session.ours", "execute_js", {"code": ONE_PLUS_ONE, "session": "peer"}),
            ("add.ours", "add", {"a": "1", "b": "1"}))  # fmt: skip
    bar = progress.bar(f"session and add x{plan.peer_iterations}, alternating", plan.warmup + plan.peer_iterations)
    for i in range(plan.warmup + plan.peer_iterations):
        for key, tool, arguments in ours:
            peer_ms, _ = await peer.run(peer.code.trivial)
            our_ms, _ = await server.timed_call(tool, arguments)
            if i >= plan.warmup:
                samples["rounds.peer"].append(peer_ms)
                samples[key].append(our_ms)
        bar.advance()
    bar.close()
    return samples


async def _ours(server: RunningServer, code: str) -> tuple[float, str]:
    elapsed, outcome = await server.timed_execute(code)
    return elapsed, str(outcome.get("resultText"))


@dataclass(frozen=True, slots=True)
class _Found:
    """What the first connection to a peer found: its code tool, the tool's code argument, the code to send."""

    tool: str
    argument: str
    code: Code


async def _side_by_side(
    plan: Plan, progress: Progress, spec: PeerSpec, section: Section
) -> tuple[dict[str, list[float]], _Found]:
    samples: dict[str, list[float]] = {key: [] for key in ("trivial.peer", "trivial.ours", "sum.peer", "sum.ours")}
    with anyio.fail_after(PEER_SESSION_TIMEOUT_S):
        async with _connected(spec) as peer, running_server() as server:
            section.notes.append(
                f"{spec.name}: `{' '.join(spec.command)}`, tool `{peer.tool}`, code argument `{peer.argument}`."
            )
            if peer.pid is None:
                section.notes.append(f"{spec.name}'s process was not found: its CPU is not measured.")
            calls = (
                (
                    "trivial",
                    plan.warmup,
                    plan.peer_iterations,
                    peer.code.trivial,
                    ONE_PLUS_ONE,
                    peer.code.trivial_expected,
                ),
                ("sum", plan.warmup // 4, plan.work_iterations, peer.code.sum, _SUM, peer.code.sum_expected),
            )
            for kind, warmup, iterations, peer_code, our_code, expected in calls:
                bar = progress.bar(f"{kind} x{iterations}, alternating", warmup + iterations)
                cpu_before = (_tree_cpu_ms(peer.pid), _tree_cpu_ms(server.pid))
                for i in range(warmup + iterations):
                    if i == warmup:
                        cpu_before = (_tree_cpu_ms(peer.pid), _tree_cpu_ms(server.pid))
                    peer_ms, text = await peer.run(peer_code)
                    our_ms, ours = await _ours(server, our_code)
                    if i >= warmup:
                        samples[f"{kind}.peer"].append(peer_ms)
                        samples[f"{kind}.ours"].append(our_ms)
                    if i == 0:
                        _check(section.notes, spec.name, kind, text, expected)
                        _check(section.notes, "sandbox-server", kind, ours, "2" if kind == "trivial" else SUM_EXPECTED)
                    bar.advance()
                bar.close()
                if kind == "trivial" and peer.pid is not None:
                    samples["cpu.peer"] = [(_tree_cpu_ms(peer.pid) - cpu_before[0]) / iterations]
                    samples["cpu.ours"] = [(_tree_cpu_ms(server.pid) - cpu_before[1]) / iterations]
                if kind == "trivial":
                    samples.update(await _session_and_add(plan, progress, peer, server))
            found = _Found(peer.tool, peer.argument, peer.code)
    return samples, found


async def _peer_cold_start(spec: PeerSpec, found: _Found) -> float:
    """Milliseconds from spawning the peer to the result of its first call."""
    started = time.perf_counter()
    with anyio.fail_after(PEER_START_TIMEOUT_S):
        async with Client(_parameters(spec), mode="legacy") as client:
            result = await client.call_tool(found.tool, {found.argument: found.code.trivial})
            elapsed = (time.perf_counter() - started) * 1000
            if result.is_error:
                raise CallFailed(f"{spec.name}'s {found.tool} failed on a cold start")
    return elapsed


async def _cold_starts(plan: Plan, progress: Progress, spec: PeerSpec, found: _Found) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {"coldstart.peer": [], "coldstart.ours": []}
    bar = progress.bar("cold starts, alternating", plan.cold_starts)
    for _ in range(plan.cold_starts):
        samples["coldstart.peer"].append(await _peer_cold_start(spec, found))
        with anyio.fail_after(PEER_START_TIMEOUT_S):
            first, _ = await coldstart.cold_start()
        samples["coldstart.ours"].append(first)
        bar.advance()
    bar.close()
    return samples


_LABELS = {
    "trivial": ("trivial call (`1+1`)", "ms"),
    "cpu": ("CPU per trivial call, server processes", "ms"),
    "sum": ("sum of 1e6 numbers", "ms"),
    "coldstart": ("cold start: spawn to first result", "ms"),
}


def skipped(note: str) -> Section:
    """The section of a run that compares with no peer, saying why."""
    return Section("peer", "8. Peer MCP server", notes=[note])


async def measure(plan: Plan, progress: Progress, spec: PeerSpec) -> Section:
    """Measure ``spec`` against sandbox-server; a peer the run found itself and cannot start gives a note."""
    progress.section(f"peer {spec.name}")
    section = Section(f"peer.{spec.name}", f"8. Peer MCP server: {spec.name} (ratio: sandbox-server / {spec.name})")
    try:
        samples, found = await _side_by_side(plan, progress, spec, section)
    except (PeerUnavailable, TimeoutError) as exc:
        if not spec.found:
            raise
        return skipped(f"{spec.name} was found on PATH but could not be measured, so it is skipped: {exc}")
    samples.update(await _cold_starts(plan, progress, spec, found))
    for kind, (label, unit) in _LABELS.items():
        if f"{kind}.peer" not in samples:
            continue
        section.rows.append(Row(f"{kind}.peer", f"{spec.name}: {label}", unit, samples[f"{kind}.peer"]))
        section.rows.append(Row(f"{kind}.ours", f"sandbox-server: {label}", unit, samples[f"{kind}.ours"]))
        section.compare(f"{kind}.ours", f"{kind}.peer", short=spec.name)
        if kind == "trivial":
            label_peer = f"{spec.name}: {label}, in the rounds below"
            section.rows.append(Row("rounds.peer", label_peer, unit, samples["rounds.peer"]))
            for key, ours in (("session", "`1+1` in a warm session"), ("add", "the exact `add` tool")):
                label_ours = f"sandbox-server: {ours}, each right after one of those"
                section.rows.append(Row(f"{key}.ours", label_ours, unit, samples[f"{key}.ours"]))
                section.compare(f"{key}.ours", "rounds.peer", short=f"{spec.name}'s trivial call")
    section.notes.append(
        "CPU per trivial call is user + system time from /proc of each server's process tree (sandbox-server: the "
        "server and its workers) over the measured calls, divided by their number."
    )
    return section
