"""The images a run's ``display()`` calls collected, made into what the tool result shows: PNG or JPEG bytes as they
came (their size read from their headers), charts and SVG rendered by the supervised renderer. Each image goes in
the result once, as an image content block; the structured content describes it (kind, size, bytes) without the
image, and a line of text says what was shown, for a model that cannot see it.

Charts are rendered one after the other, each by its turn at the shared renderer, and all of them before the call's
deadline (what is left of its ``timeout_ms`` after the code ran): a chart still waiting or drawing then fails with a
message that says so, and the ones after it fail at once."""

from __future__ import annotations

import base64
import binascii
import json
import logging
from dataclasses import dataclass, field
from typing import Any

from sandbox_server.charts import Renderer, RenderError, image_size
from sandbox_server.identity import install_line

__all__ = ["MAX_IMAGE_BYTES", "Shown", "show"]

logger = logging.getLogger(__name__)

MAX_IMAGE_BYTES = 8 * 2**20
"""Most bytes of images one result may carry, all images together (before base64)."""
_MIME = {"png": "image/png", "jpeg": "image/jpeg"}


@dataclass(slots=True)
class Shown:
    """What the result carries: the images (mime type, base64), their descriptions, and the first failure."""

    images: list[tuple[str, str]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    failure: str | None = None

    def fail(self, index: int, kind: str, message: str) -> None:
        self.entries.append({"kind": kind, "error": message})
        self.lines.append(f"image {index} ({kind}) was not shown: {message}")
        if self.failure is None:
            self.failure = f"image {index} could not be shown: {message}"


async def show(displays: Any, renderer: Renderer | None, max_pixels: int, deadline: float | None = None) -> Shown:
    """The images of ``displays`` (the worker's JSON text of ``[{"kind", "data"}]``), charts rendered before
    ``deadline`` (on :func:`anyio.current_time`'s clock)."""
    shown = Shown()
    try:
        items = json.loads(displays) if isinstance(displays, str) else []
    except ValueError:
        items = []
    total = 0
    for index, item in enumerate(items if isinstance(items, list) else [], start=1):
        kind = item.get("kind") if isinstance(item, dict) else None
        data = item.get("data") if isinstance(item, dict) else None
        if not isinstance(kind, str) or not isinstance(data, str):
            continue
        try:
            mime, encoded, width, height, description = await _image(kind, data, renderer, max_pixels, deadline)
        except RenderError as exc:
            shown.fail(index, kind, exc.message)
            continue
        size = len(encoded) * 3 // 4
        if total + size > MAX_IMAGE_BYTES:
            shown.fail(
                index,
                kind,
                f"the images of this call come to more than {MAX_IMAGE_BYTES} bytes: lower width, height "
                "or scale, or show fewer",
            )
            continue
        total += size
        shown.images.append((mime, encoded))
        shown.entries.append(
            {"kind": kind, "width": width, "height": height, "bytes": size, "description": description}
        )
        shown.lines.append(f"image {index}: {description}")
    return shown


async def _image(
    kind: str, data: str, renderer: Renderer | None, max_pixels: int, deadline: float | None
) -> tuple[str, str, int, int, str]:
    if kind in _MIME:
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise RenderError("the image bytes could not be read") from None
        size = image_size(raw)
        if size is None or size[0] != kind:
            raise RenderError(f"these bytes are not a whole {kind.upper()} image (its header is not readable)")
        _, width, height = size
        if width * height > max_pixels:
            raise RenderError(
                f"the image is {width}x{height} pixels, more than {max_pixels / 1e6:g} megapixels: make it smaller"
            )
        return _MIME[kind], data, width, height, f"{kind.upper()} image, {width}x{height}"
    if renderer is None:
        raise RenderError(
            f"this server has no chart renderer (its environment lacks the charts extra: {install_line('charts')})"
        )
    if kind == "svg":
        rendered = await renderer.render({"kind": "svg", "svg": data}, deadline=deadline)
    else:
        try:
            spec = json.loads(data)
        except ValueError:
            raise RenderError("the chart specification is not JSON") from None
        rendered = await renderer.render({"kind": kind, "spec": spec}, deadline=deadline)
    encoded = base64.b64encode(rendered.png).decode("ascii")
    return "image/png", encoded, rendered.width, rendered.height, rendered.description
