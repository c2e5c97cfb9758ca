"""A PNG bar chart of the latency comparison and of real work (``--plot``); needs the ``bench`` extra."""

from __future__ import annotations

from pathlib import Path

from benchmarks.model import Section

__all__ = ["plot"]


def plot(path: Path, sections: list[Section]) -> str | None:
    """Draw the chart to ``path``; returns why it was skipped, or None when it was written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "matplotlib is not installed (pip install 'sandbox-server[bench]'): no plot"
    by_key = {section.key: section for section in sections}
    panels = [by_key[key] for key in ("latency", "work") if key in by_key]
    if not panels:
        return "no latency measurements to plot"
    figure, axes = plt.subplots(len(panels), 1, figsize=(11, 3 + 2.2 * len(panels)), squeeze=False)
    for axis, section in zip(axes[:, 0], panels, strict=True):
        rows = list(reversed(section.rows))
        medians = [row.summary.median for row in rows]
        spreads = [max(0.0, row.summary.p95 - row.summary.median) for row in rows]
        positions = range(len(rows))
        axis.barh(positions, medians, xerr=[[0] * len(rows), spreads], color="#4c72b0", capsize=3)
        axis.set_yticks(list(positions), [row.label for row in rows], fontsize=7)
        axis.set_xscale("log")
        axis.set_xlabel("milliseconds (median; whisker to p95; log scale)")
        axis.set_title(section.title, fontsize=10)
        for position, median in zip(positions, medians, strict=True):
            axis.annotate(f" {median:.3g}", (median, position), va="center", fontsize=7)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return None
