"""Summaries of samples: median and 95th percentile (nearest rank), minimum and maximum."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Summary", "percentile", "summarize"]


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest sample with at least ``fraction`` of all samples at or below it."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True, slots=True)
class Summary:
    """The usual statistics of one list of samples."""

    n: int
    median: float
    p95: float
    minimum: float
    maximum: float


def summarize(samples: Sequence[float]) -> Summary:
    """Summarise ``samples`` (at least one)."""
    return Summary(
        n=len(samples),
        median=statistics.median(samples),
        p95=percentile(samples, 0.95),
        minimum=min(samples),
        maximum=max(samples),
    )
