"""Section 2: the CPU one job costs a worker, stage by stage, against the floor of a raw mini-racer cycle.

Both are measured in this process, before any server starts: the floor (create an isolate, evaluate ``1+1``,
close it) is what no server giving each call a fresh isolate can go below; the stages come from the worker's
own code, so a change there shows here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from benchmarks import engine
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE

OBJECT_CODE = "({ a: [1, 2] })"
"""A job whose result renders as an object, so that it compiles the runtime's deferred rendering code."""
OBJECT_TEXT = "{ a: [ 1, 2 ] }"

__all__ = ["STAGE_LABELS", "measure"]

STAGE_LABELS = {
    "create": "create the isolate (`engine.new_racer`)",
    "runtime": "load the runtime (rest of `Isolate.prepare`)",
    "warm_up": "warm-up run (`Isolate.warm_up`)",
    "call": "the `1+1` job (`job.execute`, source analysis included)",
    "close": "close the isolate (`Isolate.close`)",
}


def _cost_rows(cost: engine.Cost, step: str, key: str, label: str) -> list[Row]:
    return [
        Row(f"{key}.cpu", f"{label}: CPU", "ms", cost.cpu[step]),
        Row(f"{key}.wall", f"{label}: wall", "ms", cost.wall[step]),
    ]


def _measured(
    progress: Progress, label: str, warmup: int, n: int, cost_of: Callable[[int, engine.Tick], engine.Cost]
) -> engine.Cost:
    """``cost_of`` over ``n`` iterations, after ``warmup`` unmeasured ones, with a progress bar."""
    bar = progress.bar(label, warmup + n)
    cost_of(warmup, bar.advance)
    cost = cost_of(n, bar.advance)
    bar.close()
    return cost


def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("worker cycle against the raw floor (in this process)")
    n, warmup = plan.isolate_iterations, plan.warmup
    section = Section("cycle", "2. CPU of one job in a worker, stage by stage, against the raw floor")

    floor = _measured(progress, "raw cycle", warmup, n, engine.raw_cycle_cost)
    section.rows.extend(_cost_rows(floor, "cycle", "floor", "raw mini-racer: new isolate + `1+1` + close"))

    cycle = _measured(progress, "worker cycle", warmup, n, engine.worker_cycle_cost)
    object_job = functools.partial(engine.worker_cycle_cost, code=OBJECT_CODE, result_text=OBJECT_TEXT)
    object_cycle = _measured(progress, "worker cycle, object result", warmup, n, object_job)
    idle_job = functools.partial(object_job, idle_compile=True)
    idle_cycle = _measured(progress, "worker cycle, object result after an idle wait", warmup, n, idle_job)
    totals = [sum(cycle.cpu[stage][i] for stage in engine.STAGES) for i in range(n)]
    walls = [sum(cycle.wall[stage][i] for stage in engine.STAGES) for i in range(n)]
    section.rows.append(Row("stages.cpu", "worker cycle, all stages: CPU", "ms", totals))
    section.rows.append(Row("stages.wall", "worker cycle, all stages: wall", "ms", walls))
    for stage in engine.STAGES:
        section.rows.extend(_cost_rows(cycle, stage, f"stage.{stage}", STAGE_LABELS[stage]))
        section.compare(f"stage.{stage}.cpu", "stages.cpu", short="worker cycle CPU")
    section.rows.extend(
        _cost_rows(object_cycle, "call", "stage.call_object", f"the `{OBJECT_CODE}` job instead (same stages first)")
    )
    section.compare("stage.call_object.cpu", "stage.call.cpu", short="`1+1` job CPU")
    section.rows.extend(
        _cost_rows(
            idle_cycle,
            "call",
            "stage.call_object_idle",
            f"the `{OBJECT_CODE}` job after its worker compiled the common groups while waiting",
        )
    )
    section.compare("stage.call_object_idle.cpu", "stage.call.cpu", short="`1+1` job CPU")
    section.rows.extend(
        _cost_rows(idle_cycle, "warm_up", "stage.idle_compile", "warm-up and compiling the common groups (idle)")
    )
    section.compare("stage.idle_compile.cpu", "stage.warm_up.cpu", short="warm-up CPU")
    section.rows.append(
        Row(
            "analysis",
            "of the job: source analysis of `1+1` alone (`source.analyze`)",
            "ms",
            engine.analysis_cost(ONE_PLUS_ONE, plan.engine_iterations),
            note="wall",
        )
    )
    section.compare("stages.cpu", "floor.cpu", short="raw floor CPU")
    section.compare("analysis", "stage.call.wall", short="job wall")
    section.notes.append(
        "CPU is this process's CPU time (`time.process_time`, every thread) across each step; medians per step. "
        "The stage medians need not add up to the median of the totals."
    )
    section.notes.append(
        "The floor runs with no other isolate alive (plain mini-racer use); the stages run as a worker does, with "
        "one idle isolate kept alive, which makes creating and closing isolates cheaper."
    )
    section.notes.append(
        "The runtime's functions that a `1+1` job never calls are compiled by groups on first use: the "
        f"`{OBJECT_CODE}` job compiles the rendering and general outcome groups, the `1+1` job none; a worker whose "
        "fresh isolate waits 25 ms for its job compiles the common groups meanwhile (never while jobs wait)."
    )
    section.notes.append(
        "`create` and `runtime` are both inside `Isolate.prepare`; the benchmark hands `prepare` an isolate it "
        "created (and timed) through the worker's own `engine.new_racer`, so each is timed on the worker's code. "
        "A worker runs the warm-up inside `prepare`'s connecting call; here it is a request of its own, so that "
        "it is timed apart."
    )
    return section
