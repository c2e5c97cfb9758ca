"""Charts: Vega-Lite, Vega and SVG turned into PNG images, safely, for ``display()`` in ``execute_js``.

A chart is checked in the server first (:mod:`.sanitize` and :mod:`.sanitize_svg`: nothing that loads from
outside, nothing too large; :mod:`.estimate`: no more rows or marks than the limits), then drawn by one supervised
render process (:mod:`.renderer` gives it the charts in turn, within each call's time; :mod:`.render_process` holds
it; :mod:`.render_worker`, the only module that imports vl-convert, runs in it), which is killed when late and
started again when it dies. :func:`image_size` reads PNG and JPEG sizes from their headers, for images passed
through unchanged. Limits are in :mod:`.limits`.

Errors::

    ToolError                 (sandbox_server.errors)
    └── RenderError           a chart was refused, failed to render, took too long, or its renderer died;
                              ``message`` says what to change, for the model to read
"""

from __future__ import annotations

from sandbox_server.charts.images import image_size
from sandbox_server.charts.limits import RenderError, RenderLimits
from sandbox_server.charts.renderer import Rendered, Renderer, charts_available

__all__ = ["RenderError", "RenderLimits", "Rendered", "Renderer", "charts_available", "image_size"]
