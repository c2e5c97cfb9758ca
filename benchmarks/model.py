"""What a run produces: measured rows grouped in sections, and the targets judged from them."""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.stats import Summary, summarize

__all__ = ["Row", "Section", "Target"]


@dataclass(slots=True)
class Row:
    """One measurement: its raw samples, and optionally its ratio to another row of the same run.

    Attributes:
        key: A stable identifier, used in the JSON output and by the targets.
        label: What was measured, for people.
        unit: ``ms``, ``calls/s`` or ``MiB``.
        samples: Every measured value, in the order taken.
        ratio: This row's median divided by the baseline's median.
        baseline: The label of the row the ratio is relative to.
        note: Anything a reader needs to interpret the row.
    """

    key: str
    label: str
    unit: str
    samples: list[float]
    ratio: float | None = None
    baseline: str | None = None
    note: str = ""

    @property
    def summary(self) -> Summary:
        return summarize(self.samples)

    @property
    def median(self) -> float:
        return self.summary.median


@dataclass(slots=True)
class Section:
    """The rows of one kind of measurement."""

    key: str
    title: str
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def row(self, key: str) -> Row | None:
        """The row with ``key``, if it was measured."""
        return next((row for row in self.rows if row.key == key), None)

    def compare(self, key: str, baseline_key: str, *, short: str | None = None) -> None:
        """Set the ratio of row ``key`` to row ``baseline_key`` (medians); nothing when either is missing."""
        row, base = self.row(key), self.row(baseline_key)
        if row is None or base is None or base.median == 0:
            return
        row.ratio = row.median / base.median
        row.baseline = short or base.label


@dataclass(frozen=True, slots=True)
class Target:
    """A goal judged in this run: ``passed`` is None when what it needs was not measured."""

    name: str
    goal: str
    measured: str
    passed: bool | None
