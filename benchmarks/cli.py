"""``python -m benchmarks [--quick] [--json PATH] [--plot PATH] [--peer NAME=COMMAND]``: measure, then report."""

from __future__ import annotations

import argparse
import functools
import sys
import traceback
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import anyio

from benchmarks import (
    balancer,
    charts,
    code_mode,
    coldstart,
    consent,
    cost,
    cycle,
    datafiles,
    isolates,
    latency,
    machine,
    memory,
    node_first_use,
    packages,
    peer,
    peer_options,
    rebuild,
    sessions,
    throughput,
    tokens,
    work,
)
from benchmarks.model import Section
from benchmarks.plan import DEFAULT, QUICK, Plan
from benchmarks.progress import Progress
from benchmarks.report import markdown, target_lines, write_json
from benchmarks.session import running_server
from benchmarks.targets import judge

__all__ = ["CODE_MODE_SECTIONS", "SESSIONS_SECTIONS", "Run", "main", "run"]

CODE_MODE_SECTIONS = 3
SESSIONS_SECTIONS = 3
SECTION_COUNT = 9 + CODE_MODE_SECTIONS + SESSIONS_SECTIONS + 4


class Run:
    """The sections of one run, in order; a section that fails is reported and the run goes on."""

    def __init__(self, plan: Plan, progress: Progress, peers: list[peer_options.PeerSpec] | None = None) -> None:
        self.plan = plan
        self.progress = progress
        self.peers = peers or []
        self.sections: list[Section] = []
        self.failed = False

    async def add(self, key: str, measure: Callable[[], Awaitable[Section]]) -> None:
        try:
            self.sections.append(await measure())
        except Exception as exc:  # a broken section must not hide the others; the run still fails
            self._failure(key, exc)

    def _failure(self, key: str, exc: BaseException) -> None:
        self.failed = True
        self.progress.say(f"{key} failed:\n{traceback.format_exc()}")
        self.sections.append(Section(key, f"{key} (failed)", notes=[f"failed: {type(exc).__name__}: {exc}"]))

    async def measure_all(self) -> None:
        plan, progress = self.plan, self.progress
        # The in-process engine runs first, with no server started yet.
        await self.add("isolates", lambda: anyio.to_thread.run_sync(isolates.measure, plan, progress))
        await self.add("cycle", lambda: anyio.to_thread.run_sync(cycle.measure, plan, progress))
        # Latency, real work and throughput share one server, as a client session would.
        try:
            async with running_server() as server:
                progress.say(f"server pid {server.pid}, worker pids {server.processes()[1]}")
                await self.add("latency", lambda: latency.measure(plan, progress, server))
                await self.add("work", lambda: work.measure(plan, progress, server))
                await self.add("throughput", lambda: throughput.measure(plan, progress, server))
        except Exception as exc:  # the server did not start or did not stop
            self._failure("server", exc)
        await self.add("coldstart", lambda: coldstart.measure(plan, progress))
        # Last, with its own server, so that nothing else runs beside the processes it watches.
        await self.add("memory", lambda: memory.measure(plan, progress))
        for spec in self.peers:
            await self.add(f"peer.{spec.name}", functools.partial(peer.measure, plan, progress, spec))
        if not self.peers:
            self.sections.append(peer.skipped(peer_options.NO_PEER))
        self.sections.append(cost.derive(self.sections))
        # After memory's server is gone: its own server, with a data folder of generated CSV files.
        await self.add("datafiles", lambda: datafiles.measure(plan, progress))
        await self.add("node_first_use", lambda: node_first_use.measure(plan, progress))
        await self.measure_code_mode()
        await self.add("consent", lambda: consent.measure(plan, progress))
        await self.measure_sessions()
        await self.add("charts", lambda: charts.measure(plan, progress))
        await self.add("packages", lambda: packages.measure(plan, progress))
        await self.add("balancer", lambda: balancer.measure(plan, progress))
        await self.add("rebuild", lambda: rebuild.measure(plan, progress))

    async def measure_code_mode(self) -> None:
        """Sections 12 to 14, on one sandbox-server with the records test server upstream and a direct client."""
        plan, progress = self.plan, self.progress
        try:
            async with code_mode.code_mode_servers() as servers:
                await self.add("code_mode_call", lambda: code_mode.measure_call(plan, progress, servers))
                await self.add("code_mode_throughput", lambda: code_mode.measure_throughput(plan, progress, servers))
                await self.add("code_mode_tokens", lambda: tokens.measure(progress, servers))
        except Exception as exc:  # the servers did not start or did not stop
            self._failure("code_mode", exc)

    async def measure_sessions(self) -> None:
        """Sections 15 to 17: execute_js with ``session``, each section on a sandbox-server of its own."""
        plan, progress = self.plan, self.progress
        try:
            async with running_server(**sessions.SESSION_ENV) as server:
                await self.add("sessions_call", lambda: sessions.measure_call(plan, progress, server))
        except Exception as exc:  # the server did not start or did not stop
            self._failure("sessions_call", exc)
        await self.add("sessions_memory", lambda: sessions.measure_memory(plan, progress))
        await self.add("sessions_scenario", lambda: sessions.measure_scenario(plan, progress))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure sandbox-server against raw mini-racer, the MCP floor and fresh node processes.",
    )
    parser.add_argument("--quick", action="store_true", help="few iterations (about 20 s); every section still runs")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every raw number as JSON to PATH")
    parser.add_argument("--plot", type=Path, metavar="PATH", help="write a PNG bar chart of the latencies to PATH")
    peer_options.add_arguments(parser)
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; returns the exit status (1 when a section failed)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        peers = peer_options.specs_from(args)
    except ValueError as exc:
        parser.error(str(exc))
    plan = QUICK if args.quick else DEFAULT
    progress = Progress(SECTION_COUNT + len(peers))
    facts = machine.describe()
    progress.say(f"{plan.name} run on {facts['cpus']} CPUs, V8 {facts['v8']}, mini-racer {facts['miniRacer']}")
    bench = Run(plan, progress, peers)
    anyio.run(bench.measure_all)
    targets = judge(bench.sections)
    sys.stdout.write(markdown(facts, plan, bench.sections, targets))
    sys.stdout.flush()
    for line in target_lines(targets):
        progress.say(line)
    if args.json is not None:
        write_json(args.json, facts, plan, bench.sections, targets)
        progress.say(f"raw numbers written to {args.json}")
    if args.plot is not None:
        from benchmarks.plot import plot

        skipped = plot(args.plot, bench.sections)
        progress.say(skipped or f"chart written to {args.plot}")
    return 1 if bench.failed else 0


def main() -> None:
    sys.exit(run())
