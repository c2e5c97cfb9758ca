"""Section 22: a session call served live against one whose session is rebuilt from its journal of 1, 10 and 100 cells.

A replica that gets a call for a session state it does not hold (the state lives on another replica, or its isolate
was let go) rebuilds it: a worker process of its own for the session, then every cell of the journal run again with
what it saw, then the new cell. On one server that is what a call naming an older state does: its handle names a
state the live isolate has moved past. So each size has a session of N cells (each draws ``Math.random()`` and keeps
it, so the journal has something to replay), and the rows alternate a call with the newest handle (served live) and
a call with the handle of the N-th state (rebuilt from N cells, every time).

``python -m benchmarks --only rebuild [--quick]`` runs this section alone.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import CallFailed, RunningServer, running_server

__all__ = ["CELL", "SIZES", "measure"]

SIZES = (1, 10, 100)
"""Cells in the journal a rebuilt call replays."""
CELL = "globalThis.seen = [...(globalThis.seen ?? []), Math.random()]; seen.length"
ENV = {"SANDBOX_MAX_SESSIONS": "8", "SANDBOX_MAX_SESSIONS_PER_CLIENT": "8", "SANDBOX_SESSION_REBUILD_TIMEOUT_S": "600"}


async def _step(server: RunningServer, session: str) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    outcome = await server.call("execute_js", {"code": CELL, "session": session})
    return (time.perf_counter() - started) * 1000, outcome


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("sessions rebuilt from their journal")
    section = Section("rebuild", "22. Sessions: a call served live against one rebuilt from its journal")
    iterations = max(3, plan.work_iterations)
    async with running_server(**ENV) as server:
        bar = progress.bar("sessions", len(SIZES) * (max(SIZES) + 2 * iterations))
        for size in SIZES:
            handle = f"rebuild-{size}"
            for _ in range(size):
                _, outcome = await _step(server, handle)
                handle = outcome["session"]["handle"]
                bar.advance()
            kept, newest = handle, handle
            live: list[float] = []
            rebuilt: list[float] = []
            for _ in range(iterations):
                elapsed, outcome = await _step(server, newest)
                if outcome["session"].get("rebuilt"):
                    raise CallFailed("a call with the newest handle was rebuilt: its isolate was lost")
                newest = outcome["session"]["handle"]
                live.append(elapsed)
                elapsed, outcome = await _step(server, kept)
                if not outcome["session"].get("rebuilt") or outcome["result"] != size + 1:
                    raise CallFailed(f"a call with the handle of state {size} was not rebuilt to it: {outcome}")
                rebuilt.append(elapsed)
                # The isolate now holds the branch just made; the newest handle is rebuilt once, unmeasured.
                _, outcome = await _step(server, newest)
                newest = outcome["session"]["handle"]
                bar.advance(2)
            section.rows.append(Row(f"live.{size}", f"session call served live, journal of {size}", "ms", live))
            section.rows.append(Row(f"rebuilt.{size}", f"session call rebuilt from {size} cells", "ms", rebuilt))
            section.compare(f"rebuilt.{size}", f"live.{size}", short="served live")
        bar.close()
    small, large = section.row("rebuilt.1"), section.row("rebuilt.100")
    if small is not None and large is not None:
        per_cell = (statistics.median(large.samples) - statistics.median(small.samples)) / (max(SIZES) - 1)
        section.notes.append(
            f"Each cell replayed adds about {per_cell:.1f} ms (medians of 100 cells against 1); the rest of a rebuild "
            "is the session's own worker process, started for it. A replica rebuilds a session once, then serves it "
            "live until a call lands elsewhere."
        )
    return section
