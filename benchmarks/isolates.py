"""Section 1: how long a fresh isolate takes, raw and the way a worker prepares one."""

from __future__ import annotations

from benchmarks import engine
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress

__all__ = ["measure"]


def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("isolate start-up (in this process)")
    n, warmup = plan.isolate_iterations, plan.warmup
    paths = [
        ("raw_sync", "raw: new isolate + `1+1` + close (sync)", engine.new_isolate_sync),
        ("raw_async", "raw: new isolate + `1+1` + close (asyncio)", engine.new_isolate_async),
        (
            "runtime",
            "server path: the worker's `Isolate.prepare` without warm-up + close",
            engine.runtime_isolate_async,
        ),
        (
            "runtime_warm",
            "server path as a worker prepares one: the above + its warm-up run",
            engine.warmed_runtime_isolate_async,
        ),
    ]
    section = Section("isolates", "1. Isolate start-up")
    for key, label, path in paths:
        bar = progress.bar(key, warmup + n)
        path(warmup, bar.advance)
        samples = path(n, bar.advance)
        bar.close()
        section.rows.append(Row(key, label, "ms", samples))
    section.compare("raw_async", "raw_sync", short="raw sync")
    section.compare("runtime", "raw_async", short="raw asyncio")
    section.compare("runtime_warm", "raw_async", short="raw asyncio")
    section.notes.append(
        "A worker prepares the next isolate right after answering a call, so this cost is off the critical "
        "path of one call but bounds how many calls a worker can take per second."
    )
    return section
