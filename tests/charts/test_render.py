"""Charts render to PNGs of the size they report, in Vega's colours, with their text; one process serves them all."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from sandbox_server.charts import Rendered, Renderer, RenderError, RenderLimits, image_size

from .support import BAR, VEGA_BLUE, close_to, decoded, pixels, requires_charts, running_renderer

pytestmark = [pytest.mark.anyio, requires_charts]

LINE: dict[str, Any] = {
    "width": 400,
    "height": 150,
    "data": {"values": [{"day": day, "temp": 10 + (day * 7) % 11} for day in range(1, 31)]},
    "mark": {"type": "line", "point": True},
    "encoding": {"x": {"field": "day", "type": "quantitative"}, "y": {"field": "temp", "type": "quantitative"}},
}
VEGA: dict[str, Any] = {
    "$schema": "https://vega.github.io/schema/vega/v5.json",
    "width": 400,
    "height": 200,
    "padding": 5,
    "data": [{"name": "table", "values": [{"c": "A", "v": 28}, {"c": "B", "v": 55}, {"c": "C", "v": 43}]}],
    "scales": [
        {"name": "x", "type": "band", "domain": {"data": "table", "field": "c"}, "range": "width", "padding": 0.1},
        {"name": "y", "domain": {"data": "table", "field": "v"}, "range": "height"},
    ],
    "marks": [{
        "type": "rect", "from": {"data": "table"},
        "encode": {"enter": {
            "x": {"scale": "x", "field": "c"}, "width": {"scale": "x", "band": 1},
            "y": {"scale": "y", "field": "v"}, "y2": {"scale": "y", "value": 0}, "fill": {"value": "#4c78a8"},
        }},
    }],
}  # fmt: skip
TEXT_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="100">'
    '<rect width="240" height="100" fill="white"/>'
    '<text x="10" y="70" font-family="sans-serif" font-size="48" fill="black">Hello</text></svg>'
)


@pytest.fixture(scope="module")
async def renderer() -> AsyncIterator[Renderer]:
    async with running_renderer() as started:
        yield started


def dominant_colour(rendered: Rendered) -> tuple[int, int, int]:
    """The commonest colour that is not white, black or grey (background, axes, text)."""
    image = decoded(rendered.png)
    counts = Counter(
        pixel
        for pixel in pixels(image)
        if max(pixel) - min(pixel) > 30  # coloured, not grey
    )
    return counts.most_common(1)[0][0]


async def test_a_vega_lite_bar_chart_renders_in_vegas_blue_at_the_size_it_reports(renderer: Renderer) -> None:
    rendered = await renderer.render({"kind": "vega-lite", "spec": BAR})
    image = decoded(rendered.png)
    assert image.size == (rendered.width, rendered.height)
    assert rendered.width >= 300 and rendered.height >= 200  # the view, plus axes
    assert rendered.description == f"bar chart (vega-lite), {rendered.width}x{rendered.height}"
    assert close_to(dominant_colour(rendered), VEGA_BLUE)


async def test_a_line_chart_with_inline_data_renders(renderer: Renderer) -> None:
    rendered = await renderer.render({"kind": "vega-lite", "spec": LINE})
    assert decoded(rendered.png).size == (rendered.width, rendered.height)
    assert rendered.width >= 400 and 150 <= rendered.height < 300
    assert rendered.description.startswith("line chart (vega-lite)")
    assert close_to(dominant_colour(rendered), VEGA_BLUE)


async def test_a_vega_spec_renders(renderer: Renderer) -> None:
    rendered = await renderer.render({"kind": "vega", "spec": VEGA})
    assert decoded(rendered.png).size == (rendered.width, rendered.height) == (410, 210)
    assert rendered.description == "chart (vega), 410x210"
    assert close_to(dominant_colour(rendered), VEGA_BLUE)


async def test_an_svg_with_text_renders_the_text(renderer: Renderer) -> None:
    rendered = await renderer.render({"kind": "svg", "svg": TEXT_SVG})
    image = decoded(rendered.png)
    assert image.size == (240, 100)
    assert rendered.description == "SVG image, 240x100"
    # "Hello" at 48 px fills a good part of its box with dark pixels; outside it the image stays white.
    text_box = image.crop((10, 25, 140, 75))
    dark = sum(1 for pixel in pixels(text_box) if max(pixel) < 100)
    assert dark > 500
    assert all(min(pixel) > 240 for pixel in pixels(image.crop((160, 0, 240, 100))))


async def test_scale_multiplies_the_size(renderer: Renderer) -> None:
    once = await renderer.render({"kind": "svg", "svg": TEXT_SVG})
    twice = await renderer.render({"kind": "svg", "svg": TEXT_SVG, "scale": 2})
    assert (twice.width, twice.height) == (2 * once.width, 2 * once.height)
    assert decoded(twice.png).size == (480, 200)


async def test_charts_asked_for_at_once_are_all_rendered(renderer: Renderer) -> None:
    results: list[Rendered] = []

    async def one(item: dict[str, Any]) -> None:
        results.append(await renderer.render(item))

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for item in [{"kind": "vega-lite", "spec": BAR}, {"kind": "vega", "spec": VEGA}] * 3:
                group.start_soon(one, item)
    assert len(results) == 6
    assert len({result.png for result in results}) == 2


async def test_a_broken_specification_is_a_render_error_with_vega_lites_reason(renderer: Renderer) -> None:
    spec = {"data": {"values": [{"a": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "bogus"}}}
    with pytest.raises(RenderError) as caught:
        await renderer.render({"kind": "vega-lite", "spec": spec})
    assert caught.value.message.startswith("the chart could not be rendered: Vega-Lite to SVG conversion failed")
    assert "    at " not in caught.value.message  # no JavaScript stack
    after = await renderer.render({"kind": "vega-lite", "spec": BAR})
    assert after.width > 0


@pytest.mark.parametrize(
    "item",
    [
        pytest.param({"kind": "png", "spec": BAR}, id="unknown-kind"),
        pytest.param({"kind": "vega-lite", "spec": "bar"}, id="spec-not-object"),
        pytest.param({"kind": "svg", "svg": {"a": 1}}, id="svg-not-text"),
        pytest.param({"kind": "svg", "svg": TEXT_SVG, "scale": 0}, id="scale-zero"),
        pytest.param({"kind": "svg", "svg": TEXT_SVG, "scale": 10}, id="scale-too-large"),
        pytest.param({"kind": "svg", "svg": "<svg><rect/></svg>"}, id="svg-without-namespace"),
        pytest.param({"kind": "svg", "svg": "<svg xmlns='http://www.w3.org/2000/svg'>"}, id="svg-unclosed"),
    ],
)
async def test_a_malformed_item_is_a_render_error(renderer: Renderer, item: dict[str, Any]) -> None:
    with pytest.raises(RenderError):
        await renderer.render(item)


async def test_render_times_are_measured_not_asserted() -> None:
    renderer = Renderer(RenderLimits())
    try:
        started = time.perf_counter()
        first = await renderer.render({"kind": "vega-lite", "spec": BAR})  # a cold process: start, then render
        cold_s = time.perf_counter() - started
        warm: list[float] = []
        for item in [{"kind": "vega-lite", "spec": BAR}] * 5 + [{"kind": "svg", "svg": TEXT_SVG}] * 5:
            started = time.perf_counter()
            await renderer.render(item)
            warm.append(time.perf_counter() - started)
    finally:
        await renderer.aclose()
    bar_ms, svg_ms = sorted(warm[:5])[2] * 1000, sorted(warm[5:])[2] * 1000
    print(f"\nfirst render (process start + warm-up + render): {cold_s * 1000:.0f} ms; warm medians: "
          f"vega-lite bar {bar_ms:.1f} ms, svg with text {svg_ms:.1f} ms; bar PNG {len(first.png)} bytes")  # fmt: skip


def test_image_size_reads_png_and_jpeg_headers() -> None:
    from PIL import Image

    for fmt, expected in (("PNG", "png"), ("JPEG", "jpeg")):
        buffer = io.BytesIO()
        Image.new("RGB", (123, 45), "red").save(buffer, fmt)
        data = buffer.getvalue()
        assert image_size(data) == (expected, 123, 45)
        assert image_size(data[:12]) is None
    assert image_size(b"GIF89a\x01\x00\x01\x00") is None
    assert image_size(b"") is None
    assert image_size(b"\xff\xd8\xff\xe0\x00") is None


def test_limits_reach_the_render_process_unchanged() -> None:
    limits = RenderLimits(max_pixels=1234, max_edge=99, max_png_bytes=5, memory_mb=700, max_depth=7)
    assert RenderLimits.from_args(limits.to_args()) == limits


def test_the_server_process_never_loads_vl_convert() -> None:
    script = (
        "import anyio, json, sys\n"
        "from sandbox_server.charts import Renderer, charts_available\n"
        "async def main():\n"
        "    r = Renderer()\n"
        "    out = await r.render({'kind': 'vega-lite', 'spec': json.loads(sys.argv[1])})\n"
        "    await r.aclose()\n"
        "    return out.width\n"
        "width = anyio.run(main)\n"
        "loaded = [name in sys.modules for name in ('vl_convert', 'py_mini_racer')]\n"
        "print(json.dumps([charts_available(), width > 0, *loaded]))\n"
    )  # fmt: skip
    completed = subprocess.run(
        [sys.executable, "-c", script, json.dumps(BAR)], capture_output=True, text=True, timeout=120, check=True
    )
    assert json.loads(completed.stdout) == [True, True, False, False]
