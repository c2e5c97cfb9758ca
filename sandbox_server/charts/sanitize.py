"""What a chart may hold before it reaches the renderer: nothing that loads from outside, nothing too large.

The renderer (vl-convert) loads more than its options admit: with data loading switched off an ``image`` mark's URL
is still fetched, an SVG's ``<image href>`` and ``<feImage>`` load http URLs and absolute paths, and a chart of
100000x100000 pixels crashes it. So every chart is checked here first, in the server before it is sent and again
in the render process on the SVG that Vega made of it, and refused with a :class:`RenderError` whose message names
what to change. The rules are conservative: a key that can name a location is refused, not inspected.

Vega-Lite and Vega specifications:

- any key whose name holds ``url`` or ``href`` (data URLs at any depth, ``lookup`` sources, image marks'
  ``url`` channel or property, ``href`` channels), and ``loader`` and ``embedOptions`` anywhere;
- any string outside text (titles, descriptions, text marks, tooltips) and inline data that holds ``://``, starts
  with ``file:``, or holds a CSS ``url(...)`` other than ``url(#id)``;
- more than ``max_source_bytes`` of JSON or more than ``max_depth`` levels; a size (``width``, ``height``,
  ``padding``, concatenation, ``repeat``, ``config.view``) that is over the pixel caps at the requested scale.
  The estimate cannot know data-driven sizes (facets, steps, marks outside the view), so the render process
  checks the exact size of the SVG that Vega draws, before it is turned into pixels;
- more rows of data or more marks than the limits allow, estimated from the specification by :mod:`.estimate`.

SVG is checked by :mod:`.sanitize_svg`.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sandbox_server.charts.estimate import check_work
from sandbox_server.charts.limits import KINDS, MAX_SCALE, RenderError, RenderLimits
from sandbox_server.charts.sanitize_svg import CSS_URL, LOCAL_CSS_URL, check_svg

__all__ = ["Checked", "check_item", "check_spec", "check_svg"]


@dataclass(frozen=True, slots=True)
class Checked:
    """A chart that passed the checks: what to send to the render process, and its estimated size in pixels."""

    kind: str
    source: dict[str, Any] | str
    scale: float
    width: float
    height: float


def check_item(item: Mapping[str, Any], limits: RenderLimits) -> Checked:
    """Check one ``display()`` item: ``{"kind": "vega-lite"|"vega", "spec": {...}}`` or ``{"kind": "svg",
    "svg": "<svg ...>"}``, each with an optional ``"scale"`` (a number above 0, at most :data:`MAX_SCALE`)."""
    kind = item.get("kind")
    if kind not in KINDS:
        raise RenderError(f"unknown chart kind {kind!r}: use one of {', '.join(KINDS)}")
    scale = item.get("scale", 1)
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0 < scale <= MAX_SCALE:
        raise RenderError(f"scale must be a number above 0 and at most {MAX_SCALE:g}, not {scale!r}")
    if kind == "svg":
        svg = item.get("svg")
        if not isinstance(svg, str):
            raise RenderError("an SVG chart needs its text, as a string starting with <svg")
        width, height = check_svg(svg, limits, float(scale))
        return Checked(kind, svg, float(scale), width, height)
    spec = item.get("spec")
    if not isinstance(spec, dict):
        raise RenderError(f"a {kind} chart needs its specification, as an object")
    width, height = check_spec(spec, kind, limits, float(scale))
    return Checked(kind, spec, float(scale), width, height)


# --- Vega-Lite and Vega -------------------------------------------------------------------------------------------

_REFUSED_KEYS = frozenset({"loader", "embedOptions"})
_DATA_KEYS = frozenset({"values", "datasets"})
"""Inline data: any content, since nothing that could load it (a URL channel) is allowed."""
_TEXT_KEYS = frozenset({"title", "subtitle", "description", "text", "tooltip", "aria", "$schema", "usermeta"})
"""Text shown or kept, never loaded: a string in it may mention a URL."""
_DEFAULT_VIEW = 200.0
_CONCAT_SPACING = 20.0


def _where(path: tuple[str | int, ...]) -> str:
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path)


def check_spec(spec: dict[str, Any], kind: str, limits: RenderLimits, scale: float = 1.0) -> tuple[float, float]:
    """Check a Vega-Lite or Vega specification; returns its estimated size in pixels (at ``scale``).

    Raises:
        RenderError: It would load something, or is too large.
    """
    try:
        text = json.dumps(spec, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RenderError(f"the {kind} specification is not plain JSON: {exc}") from exc
    size = len(text)
    if size > limits.max_source_bytes:
        raise RenderError(
            f"the {kind} specification is {size} bytes of JSON, more than {limits.max_source_bytes}: "
            "aggregate or sample the data first"
        )
    _walk(spec, (), limits.max_depth, shallow=_nesting(text) <= limits.max_depth)
    check_work(spec, kind, limits)
    width, height = _vl_size(spec, _view_defaults(spec)) if kind == "vega-lite" else _vega_size(spec)
    padding = _padding(spec.get("padding"))
    width, height = (width + padding) * scale, (height + padding) * scale
    limits.check_canvas(width, height)
    return width, height


def _walk(root: Any, root_path: tuple[str | int, ...], max_depth: int, shallow: bool = False) -> None:
    """Check every key and string outside inline data and text; with ``shallow`` (the whole specification is known
    to fit ``max_depth``), inline data and text are not walked at all: they can hold hundreds of thousands of values,
    and building the path of each (to name where one is too deep) took about 0.4 s for 2 MB."""
    stack: list[tuple[Any, tuple[str | int, ...], bool]] = [(root, root_path, False)]
    while stack:
        node, path, inert = stack.pop()
        if len(path) > max_depth:
            raise RenderError(f"the specification is nested more than {max_depth} levels deep (at {_where(path)})")
        if inert and shallow:
            continue  # inline data or text: nothing in it is checked but its depth, which fits
        if isinstance(node, dict):
            for key, value in node.items():
                here = (*path, key)
                if not inert:
                    _check_key(key, here)
                text = key in _TEXT_KEYS or (key == "value" and len(path) > 0 and path[-1] in _TEXT_KEYS)
                stack.append((value, here, inert or key in _DATA_KEYS or (text and _is_text(value))))
        elif isinstance(node, list):
            stack.extend((value, (*path, index), inert) for index, value in enumerate(node))
        elif isinstance(node, str) and not inert:
            _check_string(node, path)


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS_ONLY = str.maketrans("", "", "".join(chr(code) for code in range(128) if chr(code) not in "[]{}"))
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _nesting(text: str) -> int:
    """How many arrays and objects the deepest point of a JSON text is inside (an upper bound of any value's path
    length), counted in C over its brackets outside strings."""
    brackets = _JSON_STRING.sub("", text).translate(_BRACKETS_ONLY)
    return max(itertools.accumulate(map(_DEPTH_STEP.get, brackets, itertools.repeat(0))), default=0)


def _is_text(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(item, str) for item in value))


def _check_key(key: str, path: tuple[str | int, ...]) -> None:
    lowered = key.lower()
    where = _where(path)
    parent = next((part for part in reversed(path[:-1]) if isinstance(part, str)), "")
    if lowered == "url" and parent in ("data", "from", ""):
        raise RenderError(f"external data is not allowed (at {where}): inline the rows in data.values")
    if lowered == "url":
        raise RenderError(
            f"images loaded from a URL are not allowed (at {where}): image marks cannot be used; draw with other marks"
        )
    if "href" in lowered:
        raise RenderError(f"links (href) are not allowed in charts (at {where}): remove them")
    if "url" in lowered or key in _REFUSED_KEYS:
        raise RenderError(f"{key!r} can make the renderer load from outside, which charts may not (at {where})")


def _check_string(value: str, path: tuple[str | int, ...]) -> None:
    if len(CSS_URL.findall(value)) != len(LOCAL_CSS_URL.findall(value)):
        raise RenderError(f"url(...) is not allowed in a chart (at {_where(path)}) unless it is url(#id)")
    if "://" in value or value.lstrip().lower().startswith("file:"):
        raise RenderError(
            f"the chart names a location ({value[:60]!r} at {_where(path)}); charts cannot load anything: "
            "inline the data, and put links only in titles or text"
        )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _length(value: Any, default: float) -> float:
    if isinstance(value, dict):  # {"step": 20}: the real width depends on the data; the render process checks it
        value = value.get("step")
    number = _number(value)
    return default if number is None else abs(number)


def _padding(value: Any) -> float:
    if isinstance(value, dict):
        sides = {side: abs(_number(value.get(side)) or 0.0) for side in ("left", "right", "top", "bottom")}
        return max(sides["left"] + sides["right"], sides["top"] + sides["bottom"])
    return 2 * abs(_number(value) or 0.0)


def _view_defaults(spec: dict[str, Any]) -> tuple[float, float]:
    config = spec.get("config")
    view = config.get("view") if isinstance(config, dict) else None
    if not isinstance(view, dict):
        return _DEFAULT_VIEW, _DEFAULT_VIEW
    width = max(_length(view.get(key), 0.0) for key in ("continuousWidth", "discreteWidth", "width", "step"))
    height = max(_length(view.get(key), 0.0) for key in ("continuousHeight", "discreteHeight", "height", "step"))
    return width or _DEFAULT_VIEW, height or _DEFAULT_VIEW


def _vl_size(spec: dict[str, Any], view: tuple[float, float]) -> tuple[float, float]:
    """A lower estimate of a Vega-Lite view's size: explicit sizes, concatenations added up, repeats multiplied."""
    parts = {key: spec.get(key) for key in ("hconcat", "vconcat", "concat", "layer")}
    sizes = {key: [_vl_size(part, view) for part in value if isinstance(part, dict)]
             for key, value in parts.items() if isinstance(value, list)}  # fmt: skip
    if sizes.get("hconcat"):
        parts_w = [w for w, _ in sizes["hconcat"]]
        width, height = sum(parts_w) + _CONCAT_SPACING * (len(parts_w) - 1), max(h for _, h in sizes["hconcat"])
    elif sizes.get("vconcat"):
        parts_h = [h for _, h in sizes["vconcat"]]
        width, height = max(w for w, _ in sizes["vconcat"]), sum(parts_h) + _CONCAT_SPACING * (len(parts_h) - 1)
    elif sizes.get("concat"):
        found = sizes["concat"]
        columns = int(_number(spec.get("columns")) or len(found)) or 1
        rows = [found[start : start + columns] for start in range(0, len(found), columns)]
        width = max(sum(w for w, _ in row) for row in rows)
        height = sum(max(h for _, h in row) for row in rows)
    elif sizes.get("layer"):
        width, height = max(w for w, _ in sizes["layer"]), max(h for _, h in sizes["layer"])
    elif isinstance(spec.get("spec"), dict):
        width, height = _vl_size(spec["spec"], view)
        repeat_rows, repeat_columns = _repeats(spec.get("repeat"))
        width, height = width * repeat_columns, height * repeat_rows
    else:
        width, height = view
    return _length(spec.get("width"), width), _length(spec.get("height"), height)


def _repeats(repeat: Any) -> tuple[int, int]:
    if isinstance(repeat, list):
        return 1, max(1, len(repeat))
    if isinstance(repeat, dict):
        counts = {key: len(value) for key, value in repeat.items() if isinstance(value, list)}
        return max(1, counts.get("row", 1)), max(1, counts.get("column", 1))
    return 1, 1


def _vega_size(spec: dict[str, Any]) -> tuple[float, float]:
    width, height = _length(spec.get("width"), 0.0), _length(spec.get("height"), 0.0)
    signals = spec.get("signals")
    for signal in signals if isinstance(signals, list) else []:
        if isinstance(signal, dict) and signal.get("name") in ("width", "height"):
            value = _number(signal.get("value"))
            if value is not None:
                width, height = (abs(value), height) if signal["name"] == "width" else (width, abs(value))
    return width, height
