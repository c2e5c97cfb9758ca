"""A PNG bar chart of the latency comparison and of real work (``--plot``); needs the ``bench`` extra."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.model import Row, Section

__all__ = ["plot"]


def _colour(row: Row) -> str:
    if "inside" in row.key:
        return "#8fb0de"  # the server's own report of the run inside the worker
    if "execute_js" in row.key or row.key.startswith("add"):
        return "#4c72b0"  # through the server
    if row.key.startswith("node"):
        return "#dd8452"  # the alternative
    return "#7f7f7f"  # the engine alone


def _panel(axis: Any, section: Section, *, log: bool) -> None:
    rows = list(reversed(section.rows))
    medians = [row.summary.median for row in rows]
    spreads = [max(0.0, row.summary.p95 - row.summary.median) for row in rows]
    positions = list(range(len(rows)))
    axis.barh(positions, medians, xerr=[[0] * len(rows), spreads], color=[_colour(r) for r in rows], capsize=3)
    axis.set_yticks(positions, [row.label for row in rows], fontsize=7)
    if log:
        axis.set_xscale("log")
    axis.set_xlabel("milliseconds (median; whisker to p95" + ("; log scale)" if log else ")"))
    axis.set_title(section.title, fontsize=10)
    for position, row in zip(positions, rows, strict=True):
        text = f"  {row.summary.median:.3g}" + (f" ({row.ratio:.2f}x {row.baseline})" if row.ratio else "")
        axis.annotate(text, (row.summary.p95, position), va="center", fontsize=6)


def plot(path: Path, sections: list[Section]) -> str | None:
    """Draw the chart to ``path``; returns why it was skipped, or None when it was written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install -e '.[bench]'): no plot"
    by_key = {section.key: section for section in sections}
    panels = [(by_key[key], key == "latency") for key in ("latency", "work") if key in by_key and by_key[key].rows]
    if not panels:
        return "no latency measurements to plot"
    figure, axes = plt.subplots(len(panels), 1, figsize=(12, 3 + 2.4 * len(panels)), squeeze=False)
    for axis, (section, log) in zip(axes[:, 0], panels, strict=True):
        _panel(axis, section, log=log)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return None
