"""Section 7: resident memory of the server and its workers, idle and after many calls."""

from __future__ import annotations

from benchmarks import procfs
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import memory_snippet
from benchmarks.stdio_server import RunningServer, running_server

__all__ = ["measure"]

MIB = 1024 * 1024


def _reading(server: RunningServer) -> tuple[float, float, int]:
    """RSS in MiB of the server process and of all the processes it started (its workers and, with the charts
    extra, its chart renderer) together, and the number of those that are JavaScript workers."""
    pid, children = server.processes()
    if pid is None:
        raise RuntimeError("the server process was not found among this process's children")
    return procfs.rss_bytes(pid) / MIB, sum(procfs.rss_bytes(c) for c in children) / MIB, len(procfs.workers(pid))


async def _measure(plan: Plan, progress: Progress) -> dict[str, tuple[float, float, int]]:
    readings = {}
    async with running_server() as server:
        readings["idle"] = _reading(server)
        bar = progress.bar("calls", plan.memory_calls)
        for i in range(plan.memory_calls):
            await server.execute(memory_snippet(i))
            bar.advance()
            if i + 1 == plan.memory_first:
                readings["first"] = _reading(server)
        bar.close()
        readings["last"] = _reading(server)
    return readings


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("memory")
    readings = await _measure(plan, progress)
    section = Section("memory", "7. Memory (RSS)")
    labels = {
        "idle": "idle, before any execute_js",
        "first": f"after {plan.memory_first} calls",
        "last": f"after {plan.memory_calls} calls",
    }
    for moment, (server_mib, workers_mib, count) in readings.items():
        label = labels[moment]
        section.rows.append(Row(f"{moment}.server", f"server process, {label}", "MiB", [server_mib]))
        section.rows.append(
            Row(
                f"{moment}.workers", f"{count} worker processes (and any chart renderer), {label}", "MiB", [workers_mib]
            )
        )
        section.rows.append(Row(f"{moment}.total", f"total, {label}", "MiB", [server_mib + workers_mib]))
    for part in ("server", "workers", "total"):
        section.compare(f"last.{part}", f"first.{part}", short=f"after {plan.memory_first}")
    section.notes.append("Each call runs a different small program that prints and allocates, as a model's would.")
    return section
