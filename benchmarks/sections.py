"""The sections of a run, by name and in order: :data:`PARTS` is what ``python -m benchmarks`` runs, and
``--only NAME ...`` picks some of them (a name of :data:`PARTS` or of a study in :mod:`benchmarks.studies`).

Each part adds one or more sections to the report. Parts that share a server share it only when they run together
(``latency``, ``work`` and ``throughput``); ``cost`` only derives from what ran before it.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass

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
    memory,
    node_first_use,
    packages,
    peer,
    peer_options,
    rebuild,
    recording,
    sessions,
    sessions_task,
    stages,
    throughput,
    tokens,
    work,
)
from benchmarks.model import Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import running_server

__all__ = ["PARTS", "SHARED_SERVER", "Part", "Run", "section_count"]


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a run: its name for ``--only``, what it measures, and how many sections it adds."""

    name: str
    about: str
    sections: int = 1


PARTS: tuple[Part, ...] = (
    Part("isolates", "1. isolate start-up, in this process"),
    Part("cycle", "2. the worker's cycle against the raw mini-racer floor"),
    Part("latency", "3. latency of one call over stdio"),
    Part("work", "4. real work through execute_js and raw mini-racer"),
    Part("throughput", "5. calls per second with 1 to 8 in flight, and CPU per call"),
    Part("coldstart", "6. spawn to the first execute_js result"),
    Part("memory", "7. RSS of the server and its workers as calls go"),
    Part("peer", "8. another code-running MCP server side by side (--peer)"),
    Part("cost", "9. CPU per call against the raw floor (derived from 2 and 5)"),
    Part("datafiles", "10. CSV files through the data folder"),
    Part("node_first_use", "11. Node's built-ins on first use"),
    Part("code_mode", "12-14. code mode: one upstream call, calls per second, tokens", sections=3),
    Part("consent", "19. consent on 2026-07-28: pause and resume"),
    Part("sessions", "15-17. sessions: warm calls, memory of idle sessions, a multi-step task", sections=3),
    Part("charts", "18. charts: first and warm renders"),
    Part("packages", "20. npm packages: a server with them, and first imports"),
    Part("balancer", "21. replicas behind HAProxy"),
    Part("rebuild", "22. sessions rebuilt from their journal of 1, 10 and 100 cells"),
    Part("stages", "23. where a small call's time goes, per process, against the SDK's own floor"),
    Part("recording", "24. the journal's cost: code-mode runs recorded for replay against unrecorded"),
)
SHARED_SERVER = ("latency", "work", "throughput")
"""Parts measured on one server, as a client session would use it."""


def section_count(names: Collection[str], peers: int) -> int:
    """How many sections the parts named add (for the progress display); ``peer`` adds one per peer."""
    return sum(max(1, peers) if part.name == "peer" else part.sections for part in PARTS if part.name in names)


class Run:
    """The sections of one run, in order; a section that fails is reported and the run goes on.

    Args:
        plan: The iteration counts.
        progress: The progress display.
        peers: The peer servers of section 8.
        only: The names of the parts to run (default: all of :data:`PARTS`).
    """

    def __init__(
        self,
        plan: Plan,
        progress: Progress,
        peers: list[peer_options.PeerSpec] | None = None,
        only: Collection[str] | None = None,
    ) -> None:
        self.plan = plan
        self.progress = progress
        self.peers = peers or []
        self.only = frozenset(part.name for part in PARTS) if only is None else frozenset(only)
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
        """Every part named in :attr:`only`, in the order of :data:`PARTS`."""
        plan, progress, only = self.plan, self.progress, self.only
        # The in-process engine runs first, with no server started yet.
        if "isolates" in only:
            await self.add("isolates", lambda: anyio.to_thread.run_sync(isolates.measure, plan, progress))
        if "cycle" in only:
            await self.add("cycle", lambda: anyio.to_thread.run_sync(cycle.measure, plan, progress))
        if only & set(SHARED_SERVER):
            await self.measure_on_one_server()
        if "coldstart" in only:
            await self.add("coldstart", lambda: coldstart.measure(plan, progress))
        # Last of the first group, with its own server, so that nothing else runs beside the processes it watches.
        if "memory" in only:
            await self.add("memory", lambda: memory.measure(plan, progress))
        if "peer" in only:
            for spec in self.peers:
                await self.add(f"peer.{spec.name}", functools.partial(peer.measure, plan, progress, spec))
            if not self.peers:
                self.sections.append(peer.skipped(peer_options.NO_PEER))
        if "cost" in only:
            self.sections.append(cost.derive(self.sections))
        # After memory's server is gone: its own server, with a data folder of generated CSV files.
        if "datafiles" in only:
            await self.add("datafiles", lambda: datafiles.measure(plan, progress))
        if "node_first_use" in only:
            await self.add("node_first_use", lambda: node_first_use.measure(plan, progress))
        if "code_mode" in only:
            await self.measure_code_mode()
        if "consent" in only:
            await self.add("consent", lambda: consent.measure(plan, progress))
        if "sessions" in only:
            await self.measure_sessions()
        if "charts" in only:
            await self.add("charts", lambda: charts.measure(plan, progress))
        if "packages" in only:
            await self.add("packages", lambda: packages.measure(plan, progress))
        if "balancer" in only:
            await self.add("balancer", lambda: balancer.measure(plan, progress))
        if "rebuild" in only:
            await self.add("rebuild", lambda: rebuild.measure(plan, progress))
        if "stages" in only:
            await self.add("stages", lambda: stages.measure(plan, progress))
        if "recording" in only:
            await self.add("recording", lambda: recording.measure(plan, progress))

    async def measure_on_one_server(self) -> None:
        """Sections 3 to 5 (those named), on one server, as a client session would use it."""
        plan, progress, only = self.plan, self.progress, self.only
        try:
            async with running_server() as server:
                progress.say(f"server pid {server.pid}, worker pids {server.processes()[1]}")
                if "latency" in only:
                    await self.add("latency", lambda: latency.measure(plan, progress, server))
                if "work" in only:
                    await self.add("work", lambda: work.measure(plan, progress, server))
                if "throughput" in only:
                    await self.add("throughput", lambda: throughput.measure(plan, progress, server))
        except Exception as exc:  # the server did not start or did not stop
            self._failure("server", exc)

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
        await self.add("sessions_scenario", lambda: sessions_task.measure_scenario(plan, progress))
