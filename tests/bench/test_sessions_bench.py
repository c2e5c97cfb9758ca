"""The sessions sections measured for real in quick mode: every row is there with the samples the plan asks for,
ratios and derived rows follow from their samples, and both ways of the multi-step task give the same answers."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import anyio
import pytest

from benchmarks import sessions, sessions_task
from benchmarks.model import Section
from benchmarks.plan import QUICK
from benchmarks.progress import Progress
from benchmarks.stdio_server import running_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CALL_ROWS = ("fresh", "warm", "fresh_inside", "warm_inside")
CPU_ROWS = ("cpu.fresh", "cpu.fresh_workers", "cpu.warm", "cpu.warm_workers")
NEW_ROWS = ("new", "new_inside", "cpu.new", "replaced", "cpu.replaced")
SCENARIO_RUNS = max(2, QUICK.data_iterations // 2)


@pytest.fixture(scope="module")
async def sections() -> AsyncIterator[dict[str, Section]]:
    progress = Progress(3, stream=io.StringIO())
    with anyio.fail_after(110):
        async with running_server(**sessions.SESSION_ENV) as server:
            measured = [await sessions.measure_call(QUICK, progress, server)]
        measured.append(await sessions.measure_memory(QUICK, progress))
        measured.append(await sessions_task.measure_scenario(QUICK, progress))
    yield {section.key: section for section in measured}


async def test_warm_and_fresh_calls_are_interleaved_and_relative_to_the_fresh_call(
    sections: dict[str, Section],
) -> None:
    section = sections["sessions_call"]
    assert [row.key for row in section.rows] == [*CALL_ROWS, *CPU_ROWS, *NEW_ROWS]
    fresh, warm = section.row("fresh"), section.row("warm")
    assert fresh is not None and warm is not None
    for key in CALL_ROWS:
        row = section.row(key)
        assert row is not None and len(row.samples) == QUICK.latency_iterations, key
        assert all(sample > 0 for sample in row.samples), key
    assert warm.ratio == pytest.approx(warm.median / fresh.median)
    assert warm.baseline == "fresh isolate"
    for kind in ("fresh", "warm"):
        whole, inside = section.row(kind), section.row(f"{kind}_inside")
        assert whole is not None and inside is not None
        assert all(part < call for part, call in zip(inside.samples, whole.samples, strict=True))


async def test_cpu_is_read_per_block_and_the_workers_are_part_of_the_whole(sections: dict[str, Section]) -> None:
    section = sections["sessions_call"]
    for kind in ("fresh", "warm"):
        every, workers = section.row(f"cpu.{kind}"), section.row(f"cpu.{kind}_workers")
        assert every is not None and workers is not None
        assert len(every.samples) == len(workers.samples) == sessions.CPU_BLOCKS
        assert all(0 <= part <= whole for part, whole in zip(workers.samples, every.samples, strict=True))
        assert workers.ratio == pytest.approx(workers.median / every.median)
    warm, fresh = section.row("cpu.warm"), section.row("cpu.fresh")
    assert warm is not None and fresh is not None
    assert warm.ratio == pytest.approx(warm.median / fresh.median)


async def test_each_new_session_and_each_reset_is_one_sample(sections: dict[str, Section]) -> None:
    section = sections["sessions_call"]
    for key in NEW_ROWS:
        row = section.row(key)
        assert row is not None and len(row.samples) == max(2, QUICK.cold_starts), key
    new, replaced = section.row("new"), section.row("replaced")
    assert new is not None and replaced is not None
    assert replaced.ratio == pytest.approx(replaced.median / new.median)


async def test_memory_per_session_is_the_difference_from_no_session_over_the_count(
    sections: dict[str, Section],
) -> None:
    section = sections["sessions_memory"]
    for measure in ("rss", "pss"):
        base = section.row(f"{measure}.0") if measure == "rss" else None
        for count in sessions.IDLE_COUNTS[1:]:
            per = section.row(f"{measure}.per_session.{count}")
            worker = section.row(f"pool_worker.{measure}")
            assert per is not None and worker is not None
            assert len(per.samples) == sessions.READINGS
            assert per.ratio == pytest.approx(per.median / worker.median)
            if base is not None:
                total = section.row(f"rss.{count}")
                assert total is not None
                expected = [(now - then) / count for now, then in zip(total.samples, base.samples, strict=True)]
                assert per.samples == pytest.approx(expected)
                assert total.ratio == pytest.approx(total.median / base.median)
    # Each idle session is a process of its own, so the tree grows with every one.
    totals = [section.row(f"rss.{count}") for count in sessions.IDLE_COUNTS]
    medians = [row.median for row in totals if row is not None]
    assert medians == sorted(medians) and len(medians) == len(sessions.IDLE_COUNTS)


async def test_the_scenario_totals_are_the_sums_of_their_calls_and_the_answers_agree(
    sections: dict[str, Section],
) -> None:
    section = sections["sessions_scenario"]
    assert any(note.startswith("Answers agree: yes") for note in section.notes)
    count = len(sessions_task.QUESTIONS)
    load, questions, total = (section.row(key) for key in ("load", "questions", "total"))
    reload_questions, reload_total = section.row("reload_questions"), section.row("reload_total")
    assert load is not None and questions is not None and total is not None
    assert reload_questions is not None and reload_total is not None
    assert len(load.samples) == len(total.samples) == len(reload_total.samples) == SCENARIO_RUNS
    assert len(questions.samples) == len(reload_questions.samples) == SCENARIO_RUNS * count
    for run in range(SCENARIO_RUNS):
        asked = questions.samples[run * count : (run + 1) * count]
        assert total.samples[run] == pytest.approx(load.samples[run] + sum(asked))
        again = reload_questions.samples[run * count : (run + 1) * count]
        assert reload_total.samples[run] == pytest.approx(sum(again))
    assert total.ratio == pytest.approx(total.median / reload_total.median)
    assert questions.ratio == pytest.approx(questions.median / reload_questions.median)


def test_the_generated_csv_is_the_same_every_time_and_about_5_mb() -> None:
    csv = sessions_task.sales_csv()
    assert csv == sessions_task.sales_csv()
    assert csv.count("\n") == sessions_task.CSV_ROWS + 1
    assert 4_500_000 < len(csv.encode()) < 6_000_000
    assert csv.startswith("date,region,product,customer,units,amount\n")


def test_differences_name_the_questions_whose_answers_disagree() -> None:
    expected = [[["east", 1.5]], 3, 7, *range(len(sessions_task.QUESTIONS) - 3)]
    answers = [[["east", 1.5]], 4, 7, *range(len(sessions_task.QUESTIONS) - 3)]
    assert sessions_task.differences(expected, expected) == []
    wrong = sessions_task.differences(expected, answers)
    assert len(wrong) == 1 and wrong[0].startswith(sessions_task.QUESTIONS[1][0])
