"""The goals the project sets itself, judged from the numbers of one run."""

from __future__ import annotations

from benchmarks.cost import burst_floor, server_and_workers_ms
from benchmarks.model import Row, Section, Target
from benchmarks.snippets import WORK

__all__ = ["cpu_ratio", "judge"]

MAX_CPU_RATIO = 2.5
"""Server plus worker CPU per execute_js `1+1` call (most calls in flight) against a raw mini-racer cycle."""
EXECUTE_OVER_ADD_MS = 2.0
"""execute_js `1+1` may cost at most this much more than `add` (medians)."""
MIN_CALLS_PER_S = 300.0
"""execute_js calls per second with the most calls in flight."""
MAX_WORK_RATIO = 1.15
"""Real work through execute_js against the same code in raw mini-racer."""
MAX_COLD_START_MS = 1500.0
"""Spawning the server to the first execute_js result (median)."""
MAX_MEMORY_RATIO = 1.20
"""Total RSS after many calls against after the first few."""


def _latency(sections: dict[str, Section]) -> list[Target]:
    section = sections.get("latency")
    add = section.row("add") if section else None
    one = section.row("execute_js_1plus1") if section else None
    goal = f"execute_js `1+1` median <= add median + {EXECUTE_OVER_ADD_MS:g} ms"
    if add is None or one is None:
        return [Target("latency", goal, "not measured", None)]
    measured = (
        f"{one.median:.2f} ms vs {add.median:.2f} + {EXECUTE_OVER_ADD_MS:g} ms "
        f"(ratio to add {one.median / add.median:.2f}x)"
    )
    return [Target("latency", goal, measured, one.median <= add.median + EXECUTE_OVER_ADD_MS)]


def _floor(sections: dict[str, Section]) -> Row | None:
    """The raw cycle timed around the throughput burst, else the one of section 2."""
    cycle, throughput = sections.get("cycle"), sections.get("throughput")
    near = burst_floor(throughput) if throughput else None
    if near is not None and near.samples:
        return near
    return cycle.row("floor.cpu") if cycle else None


def cpu_ratio(sections: dict[str, Section]) -> float | None:
    """Server plus worker CPU per call over the raw mini-racer cycle's CPU (medians), if both were measured.

    The raw cycle timed around the throughput burst is preferred to the one of section 2: the speed of a shared
    machine drifts between sections, and the ratio should compare one moment."""
    throughput = sections.get("throughput")
    floor = _floor(sections)
    total = server_and_workers_ms(throughput) if throughput else None
    if floor is None or total is None or floor.median <= 0:
        return None
    return total / floor.median


def _cpu(sections: dict[str, Section]) -> list[Target]:
    goal = f"server + worker CPU per execute_js `1+1` call <= {MAX_CPU_RATIO:g}x a raw mini-racer cycle"
    ratio = cpu_ratio(sections)
    if ratio is None:
        return [Target("cpu", goal, "not measured", None)]
    floor = _floor(sections)
    total = server_and_workers_ms(sections["throughput"])
    assert floor is not None and total is not None
    measured = f"{total:.2f} ms vs {floor.median:.2f} ms ({ratio:.2f}x)"
    return [Target("cpu", goal, measured, ratio <= MAX_CPU_RATIO)]


def _throughput(sections: dict[str, Section]) -> list[Target]:
    section = sections.get("throughput")
    rows = section.rows if section else []
    goal = f">= {MIN_CALLS_PER_S:g} execute_js calls/s with 8 in flight"
    row = section.row("in_flight_8") if section else None
    if row is None and rows:
        row = rows[-1]
    if row is None:
        return [Target("throughput", goal, "not measured", None)]
    rate = row.median
    return [
        Target(
            "throughput",
            goal,
            f"{rate:.0f} calls/s ({rate / MIN_CALLS_PER_S:.2f}x the goal)",
            rate >= MIN_CALLS_PER_S,
        )
    ]


def _work(sections: dict[str, Section]) -> list[Target]:
    section = sections.get("work")
    targets = []
    for snippet in WORK:
        row = section.row(f"{snippet.key}.execute_js") if section else None
        goal = f"{snippet.label}: execute_js within {MAX_WORK_RATIO:g}x raw mini-racer"
        if row is None or row.ratio is None:
            targets.append(Target(f"work.{snippet.key}", goal, "not measured", None))
            continue
        targets.append(Target(f"work.{snippet.key}", goal, f"{row.ratio:.2f}x", row.ratio <= MAX_WORK_RATIO))
    return targets


def _cold_start(sections: dict[str, Section]) -> list[Target]:
    section = sections.get("coldstart")
    row = section.row("first_result") if section else None
    goal = f"cold start to first execute_js result < {MAX_COLD_START_MS / 1000:g} s"
    if row is None:
        return [Target("coldstart", goal, "not measured", None)]
    summary = row.summary
    measured = (
        f"median {summary.median:.0f} ms, max {summary.maximum:.0f} ms "
        f"({summary.median / MAX_COLD_START_MS:.2f}x the limit)"
    )
    return [Target("coldstart", goal, measured, summary.median < MAX_COLD_START_MS)]


def _memory(sections: dict[str, Section]) -> list[Target]:
    section = sections.get("memory")
    row = section.row("last.total") if section else None
    first = section.row("first.total") if section else None
    if row is None or first is None or row.ratio is None:
        return [Target("memory", f"memory after many calls within {MAX_MEMORY_RATIO:g}x", "not measured", None)]
    goal = f"total RSS {row.label.split(', ', 1)[1]} within {MAX_MEMORY_RATIO:g}x of {first.label.split(', ', 1)[1]}"
    measured = f"{row.median:.1f} MiB vs {first.median:.1f} MiB ({row.ratio:.3f}x)"
    return [Target("memory", goal, measured, row.ratio <= MAX_MEMORY_RATIO)]


def judge(sections: list[Section]) -> list[Target]:
    """Every target, PASS, MISS or not measured."""
    by_key = {section.key: section for section in sections}
    return [
        *_latency(by_key),
        *_cpu(by_key),
        *_throughput(by_key),
        *_work(by_key),
        *_cold_start(by_key),
        *_memory(by_key),
    ]
