"""The limits of one chart, and the error a refused or failed chart raises.

The server passes the limits to the render process on its command line (:meth:`RenderLimits.to_args`); the time
limit stays in the server, which enforces it by killing the process.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass

from sandbox_server.errors import ToolError

__all__ = ["GENERATED_SVG_BYTES", "KINDS", "MAX_SCALE", "MIB", "RenderError", "RenderLimits"]

MIB = 1024 * 1024
KINDS = ("vega-lite", "vega", "svg")
"""The kinds of chart the renderer takes."""
MAX_SCALE = 4.0
"""Largest scale factor a chart may ask for."""
GENERATED_SVG_BYTES = 64 * MIB
"""Largest SVG that Vega may draw from a specification (inline data makes it larger than the specification)."""


class RenderError(ToolError):
    """A chart could not be rendered; ``message`` says what was wrong and what to change, for the model to read."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class RenderLimits:
    """Limits of one chart.

    Attributes:
        max_pixels: Largest image, in pixels (width times height, after scaling).
        max_edge: Largest width or height, in pixels.
        max_png_bytes: Largest PNG the renderer may return.
        timeout_s: Wall-clock limit of one render (the per-chart cap); the render process is killed when it is late.
            A call's charts also share what is left of the call's own time limit, whichever ends first.
        memory_mb: The render process's data-size limit (``RLIMIT_DATA`` on Linux).
        max_source_bytes: Largest specification (as JSON) or SVG text.
        max_depth: Deepest nesting of a specification's JSON, or of an SVG's elements.
        max_svg_nodes: Most SVG elements once ``<use>`` and ``url(#id)`` references are expanded.
        max_data_rows: Most rows a specification's data may hold or generate, all datasets together
            (:mod:`sandbox_server.charts.estimate`).
        max_marks: Most marks a specification may draw, estimated from its data and weighted by mark type (a point
            counts 1, a text mark 4, a line's vertex 0.1).
    """

    max_pixels: int = 16_000_000
    max_edge: int = 8192
    max_png_bytes: int = 4 * MIB
    timeout_s: float = 3.0
    memory_mb: int = 1024
    max_source_bytes: int = 2_000_000
    max_depth: int = 64
    max_svg_nodes: int = 200_000
    max_data_rows: int = 1_000_000
    max_marks: int = 20_000

    def to_args(self) -> list[str]:
        """Command-line arguments that carry these limits to a render process (the time limit stays in the parent)."""
        return [part for name in _PASSED for part in (f"--{name.replace('_', '-')}", str(getattr(self, name)))]

    @classmethod
    def from_args(cls, argv: Sequence[str]) -> RenderLimits:
        """The limits :meth:`to_args` wrote; omitted ones take their defaults."""
        parser = argparse.ArgumentParser(prog="render_worker")
        defaults = cls()
        for name in _PASSED:
            parser.add_argument(f"--{name.replace('_', '-')}", dest=name, type=int, default=getattr(defaults, name))
        return cls(**vars(parser.parse_args(argv)))

    def check_canvas(self, width: float, height: float, what: str = "the chart") -> None:
        """Refuse a canvas of ``width`` x ``height`` pixels that is over the edge or pixel cap."""
        shown = f"{math.ceil(width)}x{math.ceil(height)}"
        if width * height > self.max_pixels:
            raise RenderError(
                f"{what} would be {shown} pixels, more than {self.max_pixels / 1e6:g} megapixels: "
                "lower width/height or scale"
            )
        if max(width, height) > self.max_edge:
            raise RenderError(
                f"{what} would be {shown} pixels, more than {self.max_edge} pixels on a side: "
                "lower width/height or scale"
            )


_PASSED = ("max_pixels", "max_edge", "max_png_bytes", "memory_mb", "max_source_bytes", "max_depth", "max_svg_nodes")
