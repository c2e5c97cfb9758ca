"""The CPU ratio and the targets judged from a run's rows: arithmetic on medians, PASS, MISS or not measured."""

from __future__ import annotations

import pytest

from benchmarks import cost
from benchmarks.model import Row, Section, Target
from benchmarks.targets import EXECUTE_OVER_ADD_MS, MAX_CPU_RATIO, cpu_ratio, judge


def _cycle(floor_cpu: list[float]) -> Section:
    return Section(
        "cycle", "cycle", rows=[Row("floor.cpu", "floor", "ms", floor_cpu), Row("stages.cpu", "s", "ms", [6.0])]
    )


def _throughput(server: float, workers: float) -> Section:
    rows = [
        Row("cpu.client", "client", "ms", [0.5]),
        Row("cpu.server", "server", "ms", [server]),
        Row("cpu.workers", "workers", "ms", [workers]),
        Row(
            "cpu.total", "all", "ms", [server + workers + 0.5], note="with 8 in flight; 2 cores allow at most 1 calls/s"
        ),
    ]
    return Section("throughput", "throughput", rows=rows)


def _target(targets: list[Target], name: str) -> Target:
    return next(target for target in targets if target.name == name)


def test_the_cpu_ratio_is_server_plus_workers_over_the_median_raw_cycle() -> None:
    sections = {"cycle": _cycle([1.0, 2.0, 100.0]), "throughput": _throughput(1.0, 4.0)}
    assert cpu_ratio(sections) == pytest.approx((1.0 + 4.0) / 2.0)


def test_the_client_is_not_part_of_the_cpu_ratio() -> None:
    sections = {"cycle": _cycle([2.0]), "throughput": _throughput(1.0, 4.0)}
    sections["throughput"].rows[0].samples[0] = 50.0
    assert cpu_ratio(sections) == pytest.approx(2.5)


@pytest.mark.parametrize(
    ("server", "workers", "passed"),
    [
        pytest.param(1.0, MAX_CPU_RATIO * 2.0 - 1.0, True, id="at-the-limit"),
        pytest.param(1.0, MAX_CPU_RATIO * 2.0 - 0.99, False, id="just-over"),
        pytest.param(0.5, 1.0, True, id="well-under"),
    ],
)
def test_the_cpu_target_passes_at_most_the_allowed_ratio(server: float, workers: float, passed: bool) -> None:
    target = _target(judge([_cycle([2.0]), _throughput(server, workers)]), "cpu")
    assert target.passed is passed
    assert f"({(server + workers) / 2.0:.2f}x)" in target.measured


def test_the_cpu_target_is_not_judged_without_both_measurements() -> None:
    assert _target(judge([_cycle([2.0])]), "cpu").passed is None
    assert _target(judge([_throughput(1.0, 2.0)]), "cpu").passed is None


def _latency(add: float, one: float) -> Section:
    rows = [Row("add", "add", "ms", [add]), Row("execute_js_1plus1", "1+1", "ms", [one])]
    return Section("latency", "latency", rows=rows)


@pytest.mark.parametrize(
    ("one", "passed"),
    [
        pytest.param(1.5 + EXECUTE_OVER_ADD_MS, True, id="at-the-allowance"),
        pytest.param(1.5 + EXECUTE_OVER_ADD_MS + 0.01, False, id="over-it"),
    ],
)
def test_execute_js_may_cost_the_allowance_over_add(one: float, passed: bool) -> None:
    assert EXECUTE_OVER_ADD_MS == 2.0
    assert _target(judge([_latency(1.5, one)]), "latency").passed is passed


def test_a_missed_target_is_reported_not_raised() -> None:
    targets = judge([_cycle([1.0]), _throughput(5.0, 5.0), _latency(1.0, 10.0)])
    assert _target(targets, "cpu").passed is False
    assert _target(targets, "latency").passed is False


def test_the_derived_cpu_section_sets_every_ratio_against_the_raw_floor() -> None:
    section = cost.derive([_cycle([2.0]), _throughput(1.0, 4.0)])
    combined, workers, worker_cycle = (section.row(key) for key in ("server_workers", "workers", "worker_cycle"))
    assert combined is not None and workers is not None and worker_cycle is not None
    assert (combined.median, combined.ratio) == (5.0, pytest.approx(2.5))
    assert workers.ratio == pytest.approx(2.0)
    assert worker_cycle.ratio == pytest.approx(3.0)
    assert combined.note == "with 8 in flight"


def test_the_derived_cpu_section_leaves_out_what_was_not_measured() -> None:
    section = cost.derive([_cycle([2.0])])
    assert [row.key for row in section.rows] == ["floor", "worker_cycle"]


def test_the_raw_cycle_timed_around_the_burst_is_the_floor_of_the_cpu_ratio_when_there() -> None:
    throughput = _throughput(1.0, 4.0)
    throughput.rows.append(Row("floor.cpu", "floor near the burst", "ms", [2.5, 2.5, 90.0]))
    sections = {"cycle": _cycle([1.0]), "throughput": throughput}
    assert cpu_ratio(sections) == pytest.approx(5.0 / 2.5)
    assert "vs 2.50 ms (2.00x)" in _target(judge(list(sections.values())), "cpu").measured
    derived = cost.derive(list(sections.values()))
    combined, worker_cycle = derived.row("server_workers"), derived.row("worker_cycle")
    assert combined is not None and worker_cycle is not None
    assert (combined.ratio, combined.baseline) == (pytest.approx(2.0), "raw floor (§5)")
    # The worker's cycle was timed in section 2, beside that section's raw cycle.
    assert (worker_cycle.ratio, worker_cycle.baseline) == (pytest.approx(6.0), "raw floor (§2)")
