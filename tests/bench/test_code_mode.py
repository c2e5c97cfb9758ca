"""The code-mode sections measured for real in quick mode, against the records test server: their rows are there,
their ratios and derived numbers follow from their samples, and the token comparison's answers agree."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import anyio
import pytest

from benchmarks import code_mode, tokens
from benchmarks.model import Section
from benchmarks.plan import QUICK
from benchmarks.progress import Progress

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

DERIVED = (
    "one_by_one_total",
    "code_mode_total",
    "one_by_one_context",
    "one_by_one_batched",
    "code_mode_context",
    "one_by_one_desktop_total",
    "code_mode_desktop",
    "code_mode_described_total",
)
CALL_ROWS = code_mode.CALL_ROWS
OVER_DIRECT = code_mode.OVER_DIRECT


@pytest.fixture(scope="module")
async def sections() -> AsyncIterator[dict[str, Section]]:
    progress = Progress(3, stream=io.StringIO())
    with anyio.fail_after(100):
        async with code_mode.code_mode_servers() as servers:
            measured = [
                await code_mode.measure_call(QUICK, progress, servers),
                await code_mode.measure_throughput(QUICK, progress, servers),
                await tokens.measure(progress, servers),
            ]
    yield {section.key: section for section in measured}


async def test_one_call_rows_are_all_measured_and_relative_to_the_direct_call(sections: dict[str, Section]) -> None:
    section = sections["code_mode_call"]
    assert [row.key for row in section.rows] == list(CALL_ROWS)
    direct = section.row("direct")
    assert direct is not None
    iterations = max(3, QUICK.latency_iterations // 5)
    for row in section.rows:
        assert len(row.samples) == iterations, row.key
        if row.key in OVER_DIRECT:
            assert row.ratio is None, row.key  # a difference, which may be below zero
            continue
        if row.key not in ("first", "marginal"):  # differences of two runs too: noise may put one below zero
            assert all(sample > 0 for sample in row.samples), row.key
        if row.key != "direct":
            assert row.ratio == pytest.approx(row.median / direct.median), row.key
            assert row.baseline == "direct get_record"


async def test_the_first_and_further_calls_costs_are_derived_from_the_same_iterations(
    sections: dict[str, Section],
) -> None:
    section = sections["code_mode_call"]
    rows = {key: section.row(key) for key in CALL_ROWS}
    assert all(row is not None for row in rows.values())
    samples = {key: row.samples for key, row in rows.items() if row is not None}
    calls = code_mode.SEQUENTIAL_CALLS
    for i, direct in enumerate(samples["direct"]):
        zero, one, whole = samples["zero"][i], samples["one"][i], samples["sequential"][i]
        assert samples["first"][i] == pytest.approx(one - zero)
        assert samples["marginal"][i] == pytest.approx((whole - one) / (calls - 1))
        assert samples["first_over_direct"][i] == pytest.approx(one - zero - direct)
        assert samples["marginal_over_direct"][i] == pytest.approx((whole - one) / (calls - 1) - direct)
        paused = samples["one_paused"][i] - samples["zero_paused"][i] - direct
        assert samples["first_paused_over_direct"][i] == pytest.approx(paused)
    assert any(note.startswith("An upstream call made from JavaScript costs") for note in section.notes)


async def test_the_upstream_call_is_part_of_the_whole_call(sections: dict[str, Section]) -> None:
    section = sections["code_mode_call"]
    one, upstream = section.row("one"), section.row("one_upstream")
    assert one is not None and upstream is not None
    assert all(part < whole for part, whole in zip(upstream.samples, one.samples, strict=True))


async def test_promise_all_is_compared_with_the_same_calls_one_after_another(sections: dict[str, Section]) -> None:
    section = sections["code_mode_throughput"]
    for calls in code_mode.BATCHES:
        parallel, sequential = section.row(f"parallel_{calls}"), section.row(f"sequential_{calls}")
        assert parallel is not None and sequential is not None
        assert parallel.unit == sequential.unit == "calls/s"
        assert len(parallel.samples) == len(sequential.samples) == max(3, QUICK.work_iterations)
        assert parallel.ratio == pytest.approx(parallel.median / sequential.median)
        assert sequential.ratio is None


async def test_token_totals_are_the_sums_of_their_parts_and_the_answers_agree(sections: dict[str, Section]) -> None:
    section = sections["code_mode_tokens"]
    assert section.rows, section.notes
    assert any(f"`{name}`" in " ".join(section.notes) for name in tokens.ENCODINGS)
    assert any(note.startswith("Answers agree: yes") for note in section.notes)
    for prefix in ("one_by_one", "code_mode"):
        total = section.row(f"{prefix}_total")
        parts = [row for row in section.rows if row.key.startswith(prefix) and row.key not in DERIVED]
        assert total is not None and len(parts) >= 4
        assert total.median == sum(row.median for row in parts)
    code, direct = section.row("code_mode_total"), section.row("one_by_one_total")
    assert code is not None and direct is not None and code.ratio is not None
    assert code.ratio == pytest.approx(code.median / direct.median)
    assert code.note.startswith(f"{(1 - code.ratio) * 100:.1f}% fewer")
    # The desktop listing shows every tool of every server to the direct side; a `$describe` call first adds its
    # call and its answer to code mode's side.
    desktop, described = section.row("one_by_one_desktop_total"), section.row("code_mode_described_total")
    assert desktop is not None and desktop.median > direct.median
    assert described is not None and described.median > code.median


async def test_context_rows_compare_code_mode_with_the_batched_transcript(sections: dict[str, Section]) -> None:
    section = sections["code_mode_tokens"]
    each, batched, code = (section.row(key) for key in DERIVED[2:5])
    assert each is not None and batched is not None and code is not None
    # Code mode's listing carries the tools' signatures, so its first call is the task's code: its one call and the
    # answer are two turns.
    assert "22 turns" in each.label and "3 turns" in batched.label and "2 turns" in code.label
    assert batched.ratio == pytest.approx(batched.median / each.median)
    assert code.ratio == pytest.approx(code.median / batched.median)


def test_a_transcript_counts_each_turn_as_re_reading_everything_before_it() -> None:
    transcript = tokens.Transcript([])
    for part, direction, text in (
        ("listing", "read", "LLLL"),
        ("call", "write", "c1"),
        ("result", "read", "r1"),
        ("call", "write", "c2"),
        ("result", "read", "r2"),
        ("call", "write", "c3"),
        ("result", "read", "r3"),
        ("answer", "write", "aa"),
    ):
        transcript.add(part, direction, text)
    assert transcript.tokens(len) == {"listing": 4, "call": 6, "result": 6, "answer": 2}
    assert transcript.turns() == 4
    assert transcript.context(len) == 4 + 8 + 12 + 16
    batched = transcript.batched(1)
    assert [text for _part, _direction, text in batched.parts] == ["LLLL", "c1", "r1", "c2", "c3", "r2", "r3", "aa"]
    assert batched.turns() == 3
    assert batched.context(len) == 4 + 8 + 16
    assert batched.tokens(len) == transcript.tokens(len)
