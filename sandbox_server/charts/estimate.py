"""How much work a Vega-Lite or Vega specification asks for, read from the specification before anything is drawn.

A specification of a few hundred bytes can ask the renderer for millions of rows (``data.sequence`` from 0 to 3e6)
and as many marks, which take it minutes and gigabytes. So two numbers are estimated from the specification alone,
and a chart over either limit is refused before it reaches the render process:

- **rows**: the rows its data holds or generates, all datasets together: inline ``values`` (arrays, or CSV/TSV
  text counted by lines), ``sequence`` generators (``ceil((stop - start) / step)``), Vega's ``sequence``
  transform, ``impute`` key sequences, and the transforms that multiply rows (``fold`` by its fields, Vega's
  ``cross`` by the square, ``density``/``kde``/``quantile`` by their steps, ``kde2d``/``contour``/``heatmap``
  grids by their size).
- **marks**: what the views draw, each row of a view's data counted once per view that draws it, weighted by what
  a mark of that type costs to draw (measured with vl-convert 1.9: a text mark costs about four points, a bar
  two, a vertex of a line a tenth). A view that aggregates (an ``aggregate`` channel or transform, composite
  marks such as ``boxplot``) is not counted: how many groups it makes depends on the data.

What depends on values the estimate cannot see (the groups of an aggregate, a ``flatten`` of inline arrays, an
expression that builds arrays) is bounded by the render's time and memory limits instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from sandbox_server.charts.limits import RenderError, RenderLimits

__all__ = ["MARK_COST", "Estimate", "check_work"]

MARK_COST: dict[str, float] = {
    "text": 4.0, "bar": 2.0, "rule": 2.0, "arc": 2.0, "geoshape": 2.0, "shape": 2.0, "path": 2.0,
    "point": 1.0, "circle": 1.0, "square": 1.0, "symbol": 1.0, "image": 1.0, "tick": 0.6, "rect": 0.4,
    "trail": 0.4, "area": 0.15, "line": 0.1,
}  # fmt: skip
"""What one mark of a type costs to draw, relative to a point (measured: a point is about 0.11 ms)."""
_COMPOSITE = frozenset({"boxplot", "errorbar", "errorband"})
_DENSITY_STEPS = 200
"""Rows a density estimate makes when its specification does not say (Vega's ``maxsteps``)."""
_QUANTILE_STEP = 0.01
_MAX_COPIES = 10**9
"""Nested repeats multiply; past this many copies of a view any row is over the limits anyway."""
_AGGREGATES = frozenset({"aggregate", "pivot", "regression", "countpattern"})


class Estimate:
    """Rows and weighted marks found so far; :meth:`add_rows` refuses as soon as the rows pass the limit."""

    def __init__(self, limits: RenderLimits, kind: str) -> None:
        self.limits = limits
        self.kind = kind
        self.rows = 0.0
        self.marks = 0.0

    def add_rows(self, rows: float, where: str) -> None:
        self.rows += rows
        if self.rows > self.limits.max_data_rows:
            raise RenderError(
                f"the chart's data would have {_count(self.rows)} rows ({where}), more than the "
                f"{self.limits.max_data_rows:,} one chart may hold or generate: aggregate or sample the data before "
                "charting it"
            )

    def add_marks(self, rows: float, mark: str) -> None:
        cost = MARK_COST.get(mark, 1.0)
        self.marks += rows * cost
        if self.marks > self.limits.max_marks:
            instead = ", or draw a line instead" if cost >= MARK_COST["point"] else ""
            raise RenderError(
                f"the chart would draw about {_count(self.marks)} marks (counted as points; a {mark} mark counts "
                f"{cost:g}), more than the {self.limits.max_marks:,} one chart may draw: aggregate (bin, or an "
                f"aggregate channel), sample or filter the rows{instead}"
            )


def check_work(spec: dict[str, Any], kind: str, limits: RenderLimits) -> Estimate:
    """Estimate the rows and marks of ``spec`` (a Vega-Lite or Vega specification that passed the other checks).

    Raises:
        RenderError: The rows or the marks are over their limits; the message names the limit and what to change.
    """
    estimate = Estimate(limits, kind)
    if kind == "vega-lite":
        datasets = spec.get("datasets")
        named = {name: _rows_of_values(value) for name, value in datasets.items()} if isinstance(datasets, dict) else {}
        estimate.add_rows(sum(named.values()), "in datasets")
        _vl_view(spec, 0.0, named, estimate, 1)
    else:
        _vega(spec, estimate)
    return estimate


def _count(value: float) -> str:
    return f"{value:,.0f}" if math.isfinite(value) else "unboundedly many"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _rows_of_values(values: Any) -> float:
    if isinstance(values, list):
        return float(len(values))
    if isinstance(values, str):  # CSV, TSV or JSON text: at most a row a line
        return float(values.count("\n") + 1)
    return 1.0 if isinstance(values, dict) else 0.0


def _sequence_rows(start: Any, stop: Any, step: Any, where: str, signals: dict[str, float] | None = None) -> float:
    bounds = [_resolved(value, signals) for value in (start, stop, 1 if step is None else step)]
    if any(value is None or not math.isfinite(value) for value in bounds):
        raise RenderError(
            f"a sequence ({where}) must have plain numbers for start, stop and step (or signals with a numeric value), "
            "so that its size can be checked before it is drawn"
        )
    low, high, by = (value for value in bounds if value is not None)
    if by == 0:
        raise RenderError(f"a sequence ({where}) may not have a step of 0")
    return max(0.0, math.ceil((high - low) / by))


def _resolved(value: Any, signals: dict[str, float] | None) -> float | None:
    if isinstance(value, dict) and signals is not None and isinstance(value.get("signal"), str):
        return signals.get(value["signal"])
    return _number(value)


# --- Vega-Lite ----------------------------------------------------------------------------------------------------


def _vl_data(data: Any, inherited: float, named: dict[str, float], estimate: Estimate, copies: int) -> float:
    """Rows of a view's data: its own ``data`` (counted here, once for each copy of the view) or its parent's."""
    if not isinstance(data, dict):
        return inherited
    if isinstance(data.get("sequence"), dict):
        sequence = data["sequence"]
        rows = _sequence_rows(sequence.get("start"), sequence.get("stop"), sequence.get("step"), "data.sequence")
    elif "values" in data:
        rows = _rows_of_values(data["values"])
    elif isinstance(data.get("name"), str):
        return named.get(data["name"], inherited)  # counted with the datasets
    else:
        rows = 1.0  # sphere, graticule: a handful of shapes
    estimate.add_rows(rows * copies, "in data" if "values" in data else "made by data.sequence")
    return rows


def _vl_transforms(transforms: Any, rows: float, estimate: Estimate, copies: int) -> tuple[float, bool]:
    """Rows after a view's transforms, and whether one of them aggregates."""
    aggregated = False
    for transform in transforms if isinstance(transforms, list) else []:
        if not isinstance(transform, dict):
            continue
        made: float | None = None
        if isinstance(transform.get("fold"), list):
            made, what = rows * len(transform["fold"]), "fold"
        elif "density" in transform:
            made, what = _number(transform.get("steps")) or _DENSITY_STEPS, "density"
        elif "quantile" in transform:
            made, what = math.ceil(1 / max(abs(_number(transform.get("step")) or _QUANTILE_STEP), 1e-12)), "quantile"
        elif "impute" in transform and isinstance(keyvals := transform.get("keyvals"), dict):
            keys = _sequence_rows(keyvals.get("start"), keyvals.get("stop"), keyvals.get("step"), "impute keyvals")
            made, what = rows + keys, "impute"
        elif "aggregate" in transform or "pivot" in transform or "regression" in transform:
            aggregated = True
        elif "sample" in transform:
            rows = min(rows, _number(transform.get("sample")) or 1000.0)
        if made is not None:
            estimate.add_rows(max(0.0, made - rows) * copies, f"made by the {what} transform")
            rows = made
    return rows, aggregated


def _vl_view(spec: dict[str, Any], inherited: float, named: dict[str, float], estimate: Estimate, copies: int) -> None:
    """Count a view's rows and marks, ``copies`` times (the views a repeat makes of it)."""
    rows = _vl_data(spec.get("data"), inherited, named, estimate, copies)
    rows, aggregated = _vl_transforms(spec.get("transform"), rows, estimate, copies)
    for key in ("layer", "concat", "hconcat", "vconcat"):
        for child in spec[key] if isinstance(spec.get(key), list) else []:
            if isinstance(child, dict):
                _vl_view(child, rows, named, estimate, copies)
    if isinstance(spec.get("spec"), dict):  # facet or repeat: a repeat draws its view once per repeated field
        more = min(copies * _repeat_copies(spec.get("repeat")), _MAX_COPIES)
        _vl_view(spec["spec"], rows, named, estimate, more)
    if "mark" in spec:
        mark = spec["mark"].get("type") if isinstance(spec["mark"], dict) else spec["mark"]
        if isinstance(mark, str) and not aggregated and mark not in _COMPOSITE and not _aggregates(spec):
            estimate.add_marks(rows * copies, mark)


def _repeat_copies(repeat: Any) -> int:
    if isinstance(repeat, list):
        return max(1, len(repeat))
    if isinstance(repeat, dict):
        counts = [len(value) for value in repeat.values() if isinstance(value, list)]
        return max(1, math.prod(counts)) if counts else 1
    return 1


def _aggregates(spec: dict[str, Any]) -> bool:
    encoding = spec.get("encoding")
    if not isinstance(encoding, dict):
        return False
    return any(_channel_aggregates(channel) for channel in encoding.values())


def _channel_aggregates(channel: Any) -> bool:
    if isinstance(channel, list):  # tooltip, detail: several field definitions
        return any(_channel_aggregates(item) for item in channel)
    return isinstance(channel, dict) and "aggregate" in channel


# --- Vega ---------------------------------------------------------------------------------------------------------


def _vega_signals(spec: dict[str, Any]) -> dict[str, float]:
    """The signals a specification gives a plain number (and no update), which a sequence may use as bounds."""
    signals = spec.get("signals")
    found: dict[str, float] = {}
    for signal in signals if isinstance(signals, list) else []:
        if isinstance(signal, dict) and isinstance(signal.get("name"), str) and "update" not in signal:
            value = _number(signal.get("value"))
            if value is not None:
                found[signal["name"]] = value
    return found


def _vega(spec: dict[str, Any], estimate: Estimate) -> None:
    signals = _vega_signals(spec)
    rows: dict[str, float] = {}
    aggregated: set[str] = set()
    _vega_group(spec, rows, aggregated, signals, estimate)


def _vega_group(
    group: dict[str, Any], rows: dict[str, float], aggregated: set[str], signals: dict[str, float], estimate: Estimate
) -> None:
    """Datasets and marks of the top level or of a group mark (whose ``data`` and ``marks`` are its own)."""
    data = group.get("data")
    for entry in data if isinstance(data, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            _vega_dataset(entry, rows, aggregated, signals, estimate)
    marks = group.get("marks")
    for mark in marks if isinstance(marks, list) else []:
        if not isinstance(mark, dict) or not isinstance(mark_type := mark.get("type"), str):
            continue
        source = mark.get("from")
        facet = source.get("facet") if isinstance(source, dict) else None
        if isinstance(facet, dict):  # a group per facet: its marks draw the facet's rows, spread over the groups
            name = facet.get("data")
            if isinstance(facet.get("name"), str) and isinstance(name, str):
                rows[facet["name"]] = rows.get(name, 0.0)
                if name in aggregated:
                    aggregated.add(facet["name"])
        elif isinstance(source, dict) and isinstance(name := source.get("data"), str):
            if name not in aggregated:
                estimate.add_marks(rows.get(name, 0.0), mark_type)
        else:
            estimate.add_marks(1.0, mark_type)
        if mark_type == "group":
            _vega_group(mark, rows, aggregated, signals, estimate)


def _sources(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (item for item in value if isinstance(item, str))


def _vega_dataset(
    entry: dict[str, Any], rows: dict[str, float], aggregated: set[str], signals: dict[str, float], estimate: Estimate
) -> None:
    name: str = entry["name"]
    where = f"dataset {name!r}"
    count = sum(rows.get(source, 0.0) for source in _sources(entry.get("source")))
    reduced = any(source in aggregated for source in _sources(entry.get("source")))
    if "values" in entry:
        own = _rows_of_values(entry["values"])
        estimate.add_rows(own, where)
        count += own
    transforms = entry.get("transform")
    for transform in transforms if isinstance(transforms, list) else []:
        if not isinstance(transform, dict):
            continue
        kind = transform.get("type")
        if kind == "sequence":
            count = _sequence_rows(transform.get("start"), transform.get("stop"), transform.get("step"),
                                   f"the sequence transform of {where}", signals)  # fmt: skip
            estimate.add_rows(count, f"made by the sequence transform of {where}")
        elif kind == "cross":
            added = count * count - count
            estimate.add_rows(added, f"made by the cross transform of {where}")
            count += added
        elif kind == "fold" and isinstance(transform.get("fields"), list):
            added = count * (len(transform["fields"]) - 1)
            estimate.add_rows(added, f"made by the fold transform of {where}")
            count += added
        elif kind in ("density", "kde"):
            count = _number(transform.get("steps")) or _number(transform.get("maxsteps")) or _DENSITY_STEPS
            estimate.add_rows(count, f"made by the {kind} transform of {where}")
        elif kind in ("kde2d", "heatmap", "contour", "isocontour"):
            size = transform.get("size")
            if isinstance(size, list) and len(size) == 2 and all(_number(side) for side in size):
                cells = abs(float(size[0]) * float(size[1]))
                estimate.add_rows(cells, f"the grid of the {kind} transform of {where}")
        elif kind in _AGGREGATES:
            reduced = True
        elif kind == "sample":
            count = min(count, _number(transform.get("size")) or 1000.0)
    rows[name] = count
    if reduced:
        aggregated.add(name)
