"""Section 4: real work through execute_js against the same code in mini-racer in this process."""

from __future__ import annotations

import json

import anyio

from benchmarks import engine
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import WORK
from benchmarks.stdio_server import RunningServer

__all__ = ["measure"]

Runs = dict[str, tuple[list[float], str]]


def _raw(plan: Plan, progress: Progress) -> Runs:
    runs: Runs = {}
    for snippet in WORK:
        bar = progress.bar(f"raw {snippet.key}", plan.warmup // 4 + plan.work_iterations)
        samples, value = [], ""
        for i in range(plan.warmup // 4 + plan.work_iterations):
            elapsed, value = engine.fresh_eval(snippet.code)
            if i >= plan.warmup // 4:
                samples.append(elapsed)
            bar.advance()
        bar.close()
        runs[snippet.key] = (samples, value)
    return runs


async def _end_to_end(plan: Plan, progress: Progress, server: RunningServer) -> tuple[Runs, dict[str, list[float]]]:
    runs: Runs = {}
    inside: dict[str, list[float]] = {}
    for snippet in WORK:
        bar = progress.bar(f"execute_js {snippet.key}", plan.warmup // 4 + plan.work_iterations)
        samples, worker, value = [], [], ""
        for i in range(plan.warmup // 4 + plan.work_iterations):
            elapsed, outcome = await server.timed_execute(snippet.code)
            value = outcome.get("result")
            if i >= plan.warmup // 4:
                samples.append(elapsed)
                worker.append(float(outcome["durationMs"]))
            bar.advance()
        bar.close()
        runs[snippet.key] = (samples, value if isinstance(value, str) else json.dumps(value))
        inside[snippet.key] = worker
    return runs, inside


async def measure(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    """Measure on ``server``, which is idle while the raw runs take place."""
    progress.section("real work")
    raw = await anyio.to_thread.run_sync(_raw, plan, progress)
    served, inside = await _end_to_end(plan, progress, server)
    section = Section("work", "4. Real work: execute_js end to end vs raw mini-racer in process")
    for snippet in WORK:
        raw_samples, raw_value = raw[snippet.key]
        samples, value = served[snippet.key]
        note = "" if value == raw_value else f"results differ: {value!r} vs {raw_value!r}"
        key, label = snippet.key, snippet.label
        section.rows.append(Row(f"{key}.raw", f"{label}: raw mini-racer", "ms", raw_samples))
        section.rows.append(Row(f"{key}.execute_js", f"{label}: execute_js", "ms", samples, note=note))
        section.rows.append(Row(f"{key}.inside", f"{label}: run inside the worker (`durationMs`)", "ms", inside[key]))
        section.compare(f"{snippet.key}.execute_js", f"{snippet.key}.raw", short="raw")
        section.compare(f"{snippet.key}.inside", f"{snippet.key}.raw", short="raw")
    section.notes.append(
        "Raw runs evaluate the same code in a new isolate created outside the timing (as the server prepares "
        "one ahead of the call); execute_js is timed at the client, from sending the request to the parsed result."
    )
    section.notes.append(
        "Raw runs evaluate the code as a script; the server's runtime evaluates it with an indirect eval, which "
        "V8 compiles differently: some code (the sort) runs faster that way, so a ratio below 1 is possible."
    )
    return section
