"""Section 4: execute_js calls per second with several calls in flight on one server."""

from __future__ import annotations

import time
from collections.abc import Callable

import anyio

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.session import RunningServer
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stats import summarize

__all__ = ["measure"]


async def _burst(
    server: RunningServer, calls: int, in_flight: int, tick: Callable[[], None] | None
) -> tuple[float, list[float]]:
    """Make ``calls`` calls keeping ``in_flight`` of them running; seconds taken and each call's latency."""
    pending = iter(range(calls))
    latencies: list[float] = []

    async def caller() -> None:
        for _ in pending:
            elapsed, _outcome = await server.timed_execute(ONE_PLUS_ONE)
            latencies.append(elapsed)
            if tick is not None:
                tick()

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for _ in range(in_flight):
            group.start_soon(caller)
    return time.perf_counter() - started, latencies


async def measure(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    progress.section("throughput")
    _, workers = server.processes()
    section = Section("throughput", f"4. Throughput (one server, {len(workers)} worker processes)")
    await _burst(server, plan.warmup * 2, max(plan.concurrency), None)
    for in_flight in plan.concurrency:
        bar = progress.bar(f"{in_flight} in flight", plan.throughput_calls)
        seconds, latencies = await _burst(server, plan.throughput_calls, in_flight, bar.advance)
        bar.close()
        latency = summarize(latencies)
        section.rows.append(
            Row(
                f"in_flight_{in_flight}",
                f"execute_js `1+1`, {in_flight} in flight",
                "calls/s",
                [plan.throughput_calls / seconds],
                note=f"{plan.throughput_calls} calls; latency median {latency.median:.2f} ms, p95 {latency.p95:.2f} ms",
            )
        )
    first = f"in_flight_{plan.concurrency[0]}"
    for in_flight in plan.concurrency[1:]:
        section.compare(f"in_flight_{in_flight}", first, short=f"{plan.concurrency[0]} in flight")
    return section
