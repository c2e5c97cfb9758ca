"""The worker's cycle timed stage by stage through its own code, and the raw floor, in this process."""

from __future__ import annotations

import io

import pytest

from benchmarks import cycle, engine
from benchmarks.plan import QUICK
from benchmarks.progress import Progress
from sandbox_server.sandbox.worker import engine as worker_engine


def test_every_stage_of_the_worker_cycle_is_timed_on_each_iteration_and_no_isolate_is_left_kept() -> None:
    ticks: list[None] = []
    cost = engine.worker_cycle_cost(3, lambda: ticks.append(None))
    assert len(ticks) == 3
    for stage in engine.STAGES:
        assert len(cost.cpu[stage]) == 3 and len(cost.wall[stage]) == 3
        assert all(value >= 0 for value in cost.cpu[stage] + cost.wall[stage])
    # Loading the runtime does far more than closing an isolate, whatever the machine.
    assert sum(cost.cpu["runtime"]) > sum(cost.cpu["close"])
    assert worker_engine.KEEPER == []
    assert worker_engine.new_racer is not None and worker_engine.new_racer.__name__ == "new_racer"


def test_the_raw_floor_is_timed_once_per_cycle_in_wall_and_cpu_time() -> None:
    cost = engine.raw_cycle_cost(4, lambda: None)
    assert len(cost.cpu["cycle"]) == len(cost.wall["cycle"]) == 4
    assert all(value > 0 for value in cost.wall["cycle"])


def test_the_cycle_section_compares_the_worker_cycle_with_the_floor() -> None:
    section = cycle.measure(QUICK, Progress(7, stream=io.StringIO()))
    floor, stages = section.row("floor.cpu"), section.row("stages.cpu")
    assert floor is not None and stages is not None
    assert stages.ratio is not None and stages.ratio > 0
    for stage in engine.STAGES:
        row = section.row(f"stage.{stage}.cpu")
        assert row is not None and len(row.samples) == QUICK.isolate_iterations
        assert row.baseline == "worker cycle CPU"
    # The job that renders an object (and so compiles the deferred rendering code) is timed beside the `1+1` job.
    rendering = section.row("stage.call_object.cpu")
    assert rendering is not None and len(rendering.samples) == QUICK.isolate_iterations
    assert rendering.baseline == "`1+1` job CPU"


def test_a_job_whose_result_is_not_the_expected_text_stops_the_cycle_measurement() -> None:
    with pytest.raises(engine.CycleError, match="went wrong"):
        engine.worker_cycle_cost(1, lambda: None, "1+2", "2")
    assert worker_engine.KEEPER == []
