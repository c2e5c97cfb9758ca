"""The render process: the only module that imports vl-convert, whose own V8 (deno) must never run in the server.

``python -m sandbox_server.charts.render_worker [--no-warm] --max-pixels N ...`` reads requests on stdin and answers
on a private copy of its stdout, one message a frame (:mod:`sandbox_server.sandbox.protocol`'s framing)::

    worker -> parent   {"op": "ready", "vlConvert": "1.9.0", "warmMs": 1700.0}          once, after the warm-up
    parent -> worker   {"op": "render", "id": 3, "kind": "vega-lite", "spec": {...}, "scale": 1.0}
                       {"op": "render", "id": 4, "kind": "svg", "svg": "<svg ...>", "scale": 1.0}
    worker -> parent   {"op": "started", "id": 3}     it has the request (a death before this is not the chart's)
    worker -> parent   {"op": "rendered", "id": 3, "png": "<base64>", "width": 640, "height": 400}
                       {"op": "refused", "id": 3, "message": "..."}    a check failed (RenderError's message)
                       {"op": "failed", "id": 3, "message": "..."}     vl-convert could not render it

A specification is drawn as SVG first; that SVG goes through :func:`~sandbox_server.charts.sanitize_svg.checked_svg`
(its exact size, and any ``<image>`` a specification smuggled past the first check) and gets a fallback font for
text whose font is missing (:mod:`sandbox_server.charts.fonts`) before it becomes pixels. The
parent enforces the time limit by killing this process; this process limits its own data size, and keeps its stdout,
dies with its parent and exits as every supervised child does (:mod:`sandbox_server.platform.child`).
"""

from __future__ import annotations

import base64
import logging
import os
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from typing import Any

import vl_convert

from sandbox_server import platform
from sandbox_server.charts.fonts import with_fallback_font
from sandbox_server.charts.images import image_size
from sandbox_server.charts.limits import GENERATED_SVG_BYTES, MIB, RenderError, RenderLimits
from sandbox_server.charts.sanitize_svg import checked_svg
from sandbox_server.platform import child
from sandbox_server.sandbox.protocol import HEADER, ProtocolError, decode_frame, encode_frame, frame_length

__all__ = ["WARM_UP_SPEC", "main", "render", "run_and_exit"]

logger = logging.getLogger(__name__)

WARM_UP_SPEC: dict[str, Any] = {
    "data": {"values": [{"a": "A", "b": 1}, {"a": "B", "b": 2}]},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}},
}
"""Rendered once at start-up: the first conversion in a process loads Vega and fonts (~1.7 s)."""
_MAX_ERROR_CHARS = 600


def render(request: dict[str, Any], limits: RenderLimits) -> dict[str, Any]:
    """The answer to one render request (without its id)."""
    kind, scale = request.get("kind"), request.get("scale", 1.0)
    if not isinstance(scale, int | float) or isinstance(scale, bool):
        raise ProtocolError("render request has no numeric scale")
    try:
        if kind == "svg":
            svg, what, cap = request["svg"], "the SVG", limits.max_source_bytes
        elif kind == "vega-lite":
            svg = vl_convert.vegalite_to_svg(request["spec"], allowed_base_urls=[], show_warnings=False)
            what, cap = "the chart", GENERATED_SVG_BYTES
        elif kind == "vega":
            svg = vl_convert.vega_to_svg(request["spec"], allowed_base_urls=[])
            what, cap = "the chart", GENERATED_SVG_BYTES
        else:
            raise ProtocolError(f"unknown chart kind {kind!r}")
        root, _, _ = checked_svg(svg, limits, float(scale), what=what, max_bytes=cap)
        png = vl_convert.svg_to_png(with_fallback_font(root, svg), scale=float(scale))
        return _checked_png(png, limits, what)
    except RenderError as exc:
        return {"op": "refused", "message": exc.message}
    except (ValueError, RuntimeError) as exc:  # vl-convert's errors: a bad specification or an SVG it cannot draw
        logger.info("render failed: %s", str(exc)[:_MAX_ERROR_CHARS])
        return {"op": "failed", "message": _first_lines(str(exc))}


def _checked_png(png: bytes, limits: RenderLimits, what: str) -> dict[str, Any]:
    size = image_size(png)
    if size is None or size[0] != "png":
        return {"op": "failed", "message": "the renderer did not produce a PNG"}
    _, width, height = size
    limits.check_canvas(width, height, what)
    if len(png) > limits.max_png_bytes:
        raise RenderError(
            f"{what} makes a PNG of {len(png)} bytes, more than {limits.max_png_bytes}: "
            "lower width/height or scale, or draw fewer marks"
        )
    return {"op": "rendered", "png": base64.b64encode(png).decode("ascii"), "width": width, "height": height}


def _first_lines(text: str) -> str:
    """The part of vl-convert's error that speaks of the chart: before the JavaScript stack or Rust backtrace."""
    for cut in ("\n    at ", "\n\nStack backtrace"):
        text = text.split(cut, 1)[0]
    text = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return text[:_MAX_ERROR_CHARS] or "the renderer gave no reason"


def _warm_up() -> float:
    started = time.perf_counter()
    svg = vl_convert.vegalite_to_svg(WARM_UP_SPEC, allowed_base_urls=[], show_warnings=False)
    vl_convert.svg_to_png(svg)
    return (time.perf_counter() - started) * 1000


def _read_exactly(count: int) -> bytes:
    """``count`` bytes from stdin; fewer only when it ends first."""
    chunks: list[bytes] = []
    remaining = count
    while remaining and (chunk := os.read(0, min(remaining, 1 << 20))):
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _receive() -> dict[str, Any] | None:
    """The next request, or None when the parent closed stdin."""
    header = _read_exactly(HEADER.size)
    if not header:
        return None
    body = _read_exactly(frame_length(header)) if len(header) == HEADER.size else b""
    if len(header) < HEADER.size or len(body) < frame_length(header):
        raise ProtocolError("the request stream ended inside a frame")
    return decode_frame(body)


def _send(out_fd: int, message: dict[str, Any]) -> None:
    data = memoryview(encode_frame(message))
    while data:
        data = data[os.write(out_fd, data) :]


def main(argv: Sequence[str] | None = None) -> int:
    """Serve render requests until the parent closes stdin; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    warm = "--no-warm" not in args
    limits = RenderLimits.from_args([arg for arg in args if arg != "--no-warm"])
    out_fd = child.begin_child()  # whatever else writes to fd 1 (vl-convert's console) goes to stderr
    platform.limit_data_size(limits.memory_mb * MIB)
    warm_ms = _warm_up() if warm else 0.0
    logger.info("render process %d ready (warm-up %.0f ms)", os.getpid(), warm_ms)
    _send(out_fd, {"op": "ready", "vlConvert": metadata.version("vl-convert-python"), "warmMs": warm_ms})
    while (request := _receive()) is not None:
        if request["op"] != "render":
            raise ProtocolError(f"unknown request {request['op']!r}")
        _send(out_fd, {"op": "started", "id": request.get("id")})
        _send(out_fd, {**render(request, limits), "id": request.get("id")})
    return 0


def run_and_exit() -> None:
    """Run :func:`main` and leave without interpreter finalisation (vl-convert's runtime may block in it)."""
    child.run_and_exit(main, what="the render process", protocol_errors=(ProtocolError,))


if __name__ == "__main__":
    run_and_exit()
