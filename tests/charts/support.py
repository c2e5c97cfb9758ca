"""What the chart tests share: a renderer to use, charts to draw, and a web server that records every request."""

from __future__ import annotations

import http.server
import io
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import pytest

from sandbox_server.charts import Renderer, RenderLimits, charts_available

pytestmark = pytest.mark.anyio

requires_charts = pytest.mark.skipif(
    not charts_available(), reason="the charts extra (vl-convert-python, defusedxml) is not installed"
)

VEGA_BLUE = (0x4C, 0x78, 0xA8)
"""The colour Vega gives the first (or only) series."""

BAR: dict[str, Any] = {
    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
    "description": "Fruit sold; source https://example.org/fruit",
    "width": 300,
    "height": 200,
    "data": {"values": [{"fruit": "apple", "sold": 28}, {"fruit": "pear", "sold": 55}, {"fruit": "fig", "sold": 43}]},
    "mark": "bar",
    "encoding": {
        "x": {"field": "fruit", "type": "nominal"},
        "y": {"field": "sold", "type": "quantitative"},
        "tooltip": [{"field": "sold", "title": "Sold (see https://example.org)"}],
    },
}


@asynccontextmanager
async def running_renderer(**limits: Any) -> AsyncIterator[Renderer]:
    """A started, warmed-up renderer with these limits; closed at the end."""
    renderer = Renderer(RenderLimits(**limits))
    try:
        await renderer.start()
        await renderer.wait_ready()
        yield renderer
    finally:
        await renderer.aclose()


def decoded(png: bytes) -> Any:
    """The PNG as an RGB Pillow image."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.convert("RGB")


def pixels(image: Any) -> list[tuple[int, int, int]]:
    """The RGB pixels of a Pillow image, row by row (``getdata`` is deprecated)."""
    raw = image.convert("RGB").tobytes()
    return [(raw[at], raw[at + 1], raw[at + 2]) for at in range(0, len(raw), 3)]


def close_to(colour: tuple[int, int, int], expected: tuple[int, int, int], tolerance: int = 12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


class Recorder(http.server.BaseHTTPRequestHandler):
    """Records the path of every request, answers 404."""

    seen: list[str]

    def do_GET(self) -> None:
        self.seen.append(self.path)
        self.send_response(404)
        self.end_headers()

    do_POST = do_HEAD = do_GET

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def recording_server() -> Iterator[tuple[str, list[str]]]:
    """A web server on 127.0.0.1 in a thread: ``(base URL, the request paths it has received)``."""
    seen: list[str] = []
    handler = type("Handler", (Recorder,), {"seen": seen})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
