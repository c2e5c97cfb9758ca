"""Section 18 (charts) runs in quick mode and its rows agree with each other; no speed is asserted."""

from __future__ import annotations

import pytest

from benchmarks import charts
from benchmarks.plan import QUICK
from benchmarks.progress import Progress
from sandbox_server.charts import charts_available

pytestmark = pytest.mark.anyio


async def test_the_charts_section_measures_first_and_warm_charts_against_a_plain_call() -> None:
    section = await charts.measure(QUICK, Progress(1))
    if not charts_available():
        assert section.rows == [] and "skipped" in section.notes[0]
        return
    keys = [row.key for row in section.rows]
    assert keys == [
        "charts_plain",
        "charts_first",
        "charts_bar",
        "charts_svg",
        "charts_refused",
        "charts_after_kill",
        "charts_behind_cap",
    ]
    plain = section.row("charts_plain")
    assert plain is not None and len(plain.samples) >= 5
    for key in ("charts_first", "charts_bar", "charts_svg"):
        row = section.row(key)
        assert row is not None and row.baseline == "no display()"
        assert row.ratio == pytest.approx(row.median / plain.median)
        assert int(row.note.split()[0]) > 100  # bytes of PNG added to the result
    for key in ("charts_after_kill", "charts_behind_cap"):
        row = section.row(key)
        assert row is not None and row.baseline == "a warm bar chart" and row.samples
