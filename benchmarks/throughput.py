"""Section 5: execute_js calls per second with several calls in flight on one server, and the CPU each call
costs in each process (which bounds the rate the machine's cores allow)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import anyio

from benchmarks import engine, procfs
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stats import summarize
from benchmarks.stdio_server import RunningServer

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


def _cpu(server: RunningServer) -> dict[str, float]:
    """CPU milliseconds used so far by this process, the server, and every worker the server has had."""
    pid, _ = server.processes()
    if pid is None:
        raise RuntimeError("the server process was not found among this process's children")
    return {
        "client": procfs.cpu_ms(os.getpid()),
        "server": procfs.cpu_ms(pid),
        # Workers that retired during the burst are counted through the server's reaped-children time.
        "workers": procfs.tree_cpu_ms(pid, include_root=False),
    }


def _cpu_rows(before: dict[str, float], after: dict[str, float], calls: int, in_flight: int) -> list[Row]:
    per_call = {role: (after[role] - before[role]) / calls for role in before}
    total = sum(per_call.values())
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    labels = {
        "client": "CPU per call: this process (MCP client)",
        "server": "CPU per call: server process (MCP + pool)",
        "workers": "CPU per call: worker processes (run + next isolate)",
    }
    rows = [Row(f"cpu.{role}", label, "ms", [per_call[role]]) for role, label in labels.items()]
    ceiling = cores * 1000 / total if total > 0 else 0.0
    rows.append(
        Row(
            "cpu.total",
            "CPU per call: all processes",
            "ms",
            [total],
            note=f"with {in_flight} in flight; {cores} cores allow at most {ceiling:.0f} calls/s at this cost",
        )
    )
    return rows


async def measure(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    progress.section("throughput")
    workers = len(procfs.workers(server.pid)) if server.pid is not None else 0
    section = Section("throughput", f"5. Throughput (one server, {workers} worker processes)")
    await _burst(server, plan.warmup * 2, max(plan.concurrency), None)
    cpu_rows: list[Row] = []
    floor: list[float] = []
    for in_flight in plan.concurrency:
        last = in_flight == plan.concurrency[-1]
        if last:
            floor += await _floor(plan.isolate_iterations // 2)
        bar = progress.bar(f"{in_flight} in flight", plan.throughput_calls)
        before = _cpu(server)
        seconds, latencies = await _burst(server, plan.throughput_calls, in_flight, bar.advance)
        after = _cpu(server)
        bar.close()
        if last:
            floor += await _floor(plan.isolate_iterations // 2)
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
        cpu_rows = _cpu_rows(before, after, plan.throughput_calls, in_flight)
    section.rows.extend(cpu_rows)
    if floor:
        section.rows.append(
            Row(
                "floor.cpu",
                "raw mini-racer cycle (new isolate, `1+1`, close) in this process, just before and after that burst: "
                "CPU",
                "ms",
                floor,
            )
        )
    first = f"in_flight_{plan.concurrency[0]}"
    for in_flight in plan.concurrency[1:]:
        section.compare(f"in_flight_{in_flight}", first, short=f"{plan.concurrency[0]} in flight")
    for role in ("client", "server", "workers"):
        section.compare(f"cpu.{role}", "cpu.total", short="all processes")
    section.notes.append(
        "CPU per call is user + system time from /proc/PID/stat over the burst with the most calls in flight, "
        "divided by its calls; workers replaced during the burst are included. Clock ticks are 10 ms, so with "
        "few calls (--quick) it is coarse."
    )
    section.notes.append(
        "The raw cycle is timed here too, half just before and half just after the burst the CPU comes from, so "
        "that the ratio to it (section 9) compares moments of the same machine load; section 2 times it earlier."
    )
    return section


async def _floor(iterations: int) -> list[float]:
    """CPU milliseconds of ``iterations`` raw mini-racer cycles, in a thread (no event loop binds the isolates)."""
    cost = await anyio.to_thread.run_sync(engine.raw_cycle_cost, iterations, lambda: None)
    return cost.cpu["cycle"]
