"""A short text for the model about a rendered chart: what it shows (from its mark or its composition), its kind and
its size, e.g. ``bar chart (vega-lite), 640x400``."""

from __future__ import annotations

from typing import Any

__all__ = ["describe"]

_MARK_NAMES = {
    "bar": "bar chart", "line": "line chart", "trail": "line chart", "area": "area chart", "point": "scatter plot",
    "circle": "scatter plot", "square": "scatter plot", "arc": "pie chart", "rect": "heatmap", "tick": "strip plot",
    "boxplot": "box plot", "errorbar": "error bars", "errorband": "error band", "geoshape": "map",
    "text": "text chart", "rule": "rule chart",
}  # fmt: skip


def describe(kind: str, source: dict[str, Any] | str, width: int, height: int) -> str:
    """A short description of a chart: what it shows, its kind and its size in pixels."""
    if kind == "svg":
        return f"SVG image, {width}x{height}"
    name = _chart_name(source) if isinstance(source, dict) and kind == "vega-lite" else "chart"
    return f"{name} ({kind}), {width}x{height}"


def _chart_name(spec: dict[str, Any]) -> str:
    mark = spec.get("mark")
    mark_type = mark.get("type") if isinstance(mark, dict) else mark
    if isinstance(mark_type, str):
        return _MARK_NAMES.get(mark_type, f"{mark_type} chart")
    for key in ("hconcat", "vconcat", "concat"):
        if isinstance(spec.get(key), list):
            return f"composite chart of {len(spec[key])} views"
    if isinstance(spec.get("layer"), list):
        names = {_chart_name(layer) for layer in spec["layer"] if isinstance(layer, dict)}
        return names.pop() if len(names) == 1 else "layered chart"
    if isinstance(spec.get("spec"), dict):
        return ("faceted " if "facet" in spec else "repeated ") + _chart_name(spec["spec"])
    return "chart"
