"""Section 3: latency of one small call, end to end, against the engine floor and a fresh node process."""

from __future__ import annotations

import time

import anyio

from benchmarks import engine, node
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE, PRINTS
from benchmarks.stdio_server import RunningServer

__all__ = ["SPACING_S", "measure"]

SPACING_S = 0.05
"""Pause before each spaced call: long enough for every process to go idle, as between a model's tool calls."""


def _engine_rows(plan: Plan, progress: Progress) -> list[Row]:
    rows = []
    for key, label, path in (
        ("engine_async", "engine floor: warm isolate `await eval_cancelable('1+1')`", engine.warm_eval_async),
        ("engine_sync", "engine floor: warm isolate `eval('1+1')` (sync)", engine.warm_eval_sync),
    ):
        bar = progress.bar(key, plan.warmup + plan.engine_iterations)
        path(ONE_PLUS_ONE, plan.warmup, bar.advance)
        samples = path(ONE_PLUS_ONE, plan.engine_iterations, bar.advance)
        bar.close()
        rows.append(Row(key, label, "ms", samples))
    return rows


def _node_rows(plan: Plan, progress: Progress, section: Section) -> list[Row]:
    command = node.node_command()
    if command is None:
        section.notes.append("node is not on PATH: the fresh-process comparison was skipped.")
        return []
    section.notes.append(f"node {node.node_version(command)} at {command}.")
    rows = []
    for key, label, code, print_result in (
        ("node_1plus1", "node: fresh `node -p '1+1'` process", ONE_PLUS_ONE, True),
        ("node_prints", "node: fresh `node -e` process, prints 5 lines", PRINTS, False),
    ):
        bar = progress.bar(key, 1 + plan.node_iterations)
        node.node_run(command, code, print_result=print_result)
        bar.advance()
        samples = []
        for _ in range(plan.node_iterations):
            samples.append(node.node_run(command, code, print_result=print_result))
            bar.advance()
        bar.close()
        rows.append(Row(key, label, "ms", samples))
    return rows


async def _end_to_end_rows(plan: Plan, progress: Progress, server: RunningServer) -> list[Row]:
    add: list[float] = []
    one: list[float] = []
    prints: list[float] = []
    inside: list[float] = []
    bar = progress.bar("end to end", plan.warmup + plan.latency_iterations)
    for i in range(plan.warmup + plan.latency_iterations):
        measured = i >= plan.warmup
        # Interleaved, so that drift during the run affects every kind of call alike.
        started = time.perf_counter()
        await server.call("add", {"a": i, "b": 1})
        elapsed = (time.perf_counter() - started) * 1000
        elapsed_one, outcome = await server.timed_execute(ONE_PLUS_ONE)
        elapsed_prints, _ = await server.timed_execute(PRINTS)
        if measured:
            add.append(elapsed)
            one.append(elapsed_one)
            prints.append(elapsed_prints)
            inside.append(float(outcome["durationMs"]))
        bar.advance()
    bar.close()
    spaced_add: list[float] = []
    spaced_one: list[float] = []
    bar = progress.bar("spaced", plan.spaced_iterations)
    for i in range(plan.spaced_iterations):
        await anyio.sleep(SPACING_S)
        started = time.perf_counter()
        await server.call("add", {"a": i, "b": 1})
        spaced_add.append((time.perf_counter() - started) * 1000)
        await anyio.sleep(SPACING_S)
        elapsed_one, _ = await server.timed_execute(ONE_PLUS_ONE)
        spaced_one.append(elapsed_one)
        bar.advance()
    bar.close()
    spacing = f"{SPACING_S * 1000:.0f} ms pause before each call"
    return [
        Row("add", "MCP floor: `add` over stdio", "ms", add),
        Row("execute_js_1plus1", "execute_js `1+1` over stdio", "ms", one),
        Row("execute_js_prints", "execute_js printing 5 lines over stdio", "ms", prints),
        Row(
            "execute_js_inside",
            "of which the run inside the worker (`durationMs` of `1+1`)",
            "ms",
            inside,
            note="as reported by the server",
        ),
        Row("add_spaced", "`add`, calls spaced out", "ms", spaced_add, note=spacing),
        Row("execute_js_spaced", "execute_js `1+1`, calls spaced out", "ms", spaced_one, note=spacing),
    ]


async def measure(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    """Measure on ``server``, which is idle while the engine and node measurements run."""
    progress.section("latency of one call")
    section = Section("latency", "3. Latency of one call")
    section.rows.extend(await anyio.to_thread.run_sync(_engine_rows, plan, progress))
    section.rows.extend(await _end_to_end_rows(plan, progress, server))
    section.rows.extend(await anyio.to_thread.run_sync(_node_rows, plan, progress, section))
    section.compare("engine_sync", "engine_async", short="engine asyncio")
    section.compare("add", "engine_async", short="engine asyncio")
    section.compare("execute_js_1plus1", "add", short="add")
    section.compare("execute_js_prints", "execute_js_1plus1", short="execute_js 1+1")
    section.compare("execute_js_inside", "execute_js_1plus1", short="execute_js 1+1")
    section.compare("add_spaced", "add", short="add")
    section.compare("execute_js_spaced", "add_spaced", short="add spaced")
    section.compare("node_1plus1", "execute_js_1plus1", short="execute_js 1+1")
    section.compare("node_prints", "execute_js_prints", short="execute_js prints")
    add, one = section.row("add"), section.row("execute_js_1plus1")
    if add is not None and one is not None:
        section.notes.append(
            f"execute_js `1+1` costs {one.median - add.median:.2f} ms (median) above the protocol floor `add`."
        )
    section.notes.append(
        "Back-to-back calls keep every process and CPU busy; spaced calls (a model's pace) include waking them up."
    )
    return section
