"""Text whose font is missing is drawn in a fallback font: without a font-family, with one the host lacks, in a style
attribute or a stylesheet, and in a chart Vega draws with a configured font. Each is checked in the pixels."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from sandbox_server.charts import Renderer

from .support import BAR, decoded, pixels, requires_charts, running_renderer

pytestmark = [pytest.mark.anyio, requires_charts]


def text_svg(text_attributes: str = "", style: str = "", root_attributes: str = "") -> str:
    """White 240x100, "Hello" at 48 px in the left box, nothing on the right."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="240" height="100"{root_attributes}><style>{style}</style>'
        '<rect width="240" height="100" fill="white"/>'
        f'<text x="10" y="70" font-size="48" fill="black"{text_attributes}>Hello</text></svg>'
    )


def dark_pixels(png: bytes, box: tuple[int, int, int, int]) -> int:
    return sum(1 for pixel in pixels(decoded(png).crop(box)) if max(pixel) < 100)


@pytest.fixture(scope="module")
async def renderer() -> AsyncIterator[Renderer]:
    async with running_renderer() as started:
        yield started


@pytest.mark.parametrize(
    "svg",
    [
        pytest.param(text_svg(), id="no-font-family"),
        pytest.param(text_svg(' font-family="Arial"'), id="missing-family"),
        pytest.param(text_svg(" font-family=\"'Open Sans', Helvetica\""), id="missing-family-list"),
        pytest.param(text_svg(' font-family="cursive"'), id="unresolved-generic"),
        pytest.param(text_svg(' style="font-family: Arial !important"'), id="style-attribute"),
        pytest.param(text_svg(' style="font: 48px Arial"'), id="style-shorthand"),
        pytest.param(text_svg(style="text { font-family: Arial }"), id="stylesheet"),
        pytest.param(text_svg(root_attributes=' font-family="Times New Roman"'), id="missing-family-on-root"),
        pytest.param(text_svg(' font-family="inherit"'), id="inherit-from-nothing"),
        pytest.param(text_svg().replace("<text", "<g><text").replace("</text>", "</text></g>"), id="nested"),
    ],
)
async def test_svg_text_without_an_available_font_is_drawn_in_a_fallback_font(renderer: Renderer, svg: str) -> None:
    rendered = await renderer.render({"kind": "svg", "svg": svg})
    # "Hello" at 48 px fills a good part of its box with dark pixels (the renderer used to draw none).
    assert dark_pixels(rendered.png, (10, 25, 140, 75)) > 500
    assert dark_pixels(rendered.png, (160, 0, 240, 100)) == 0


async def test_a_font_the_host_has_is_still_the_one_used(renderer: Renderer) -> None:
    mono = await renderer.render({"kind": "svg", "svg": text_svg(' font-family="monospace"')})
    fallback = await renderer.render({"kind": "svg", "svg": text_svg()})
    assert dark_pixels(mono.png, (10, 25, 240, 75)) > 500
    assert mono.png != fallback.png  # monospace "Hello" is wider than the sans-serif fallback


async def test_a_vega_lite_title_in_a_configured_font_the_host_lacks_is_drawn(renderer: Renderer) -> None:
    spec: dict[str, Any] = json.loads(json.dumps(BAR))
    plain = await renderer.render({"kind": "vega-lite", "spec": {**spec, "config": {"font": "NoSuchFont"}}})
    titled = await renderer.render(
        {"kind": "vega-lite", "spec": {**spec, "title": "WWWWWWWW", "config": {"font": "NoSuchFont"}}}
    )
    # The title adds a band of text above the view: dark pixels that the untitled chart lacks.
    band = (0, 0, titled.width, titled.height - plain.height)
    assert titled.height > plain.height and dark_pixels(titled.png, band) > 100


def test_an_svg_whose_text_has_an_available_font_is_passed_on_as_it_came() -> None:
    from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

    from sandbox_server.charts.fonts import with_fallback_font

    svg = text_svg(' font-family="Helvetica, sans-serif"')
    assert with_fallback_font(fromstring(svg), svg) is svg
    without = text_svg()
    assert 'font-family="sans-serif"' in with_fallback_font(fromstring(without), without)
