"""display() through the official MCP client: a Vega-Lite chart, SVG and PNG bytes become image blocks the client
decodes, after the text, each described in a line of text and in the structured content (never twice as bytes)."""

from __future__ import annotations

import base64
import io
from collections.abc import AsyncIterator

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.charts import charts_available
from sandbox_server.server import App

from ..conftest import make_settings

PIL = pytest.importorskip("PIL.Image")
pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not charts_available(), reason="the charts extra (vl-convert-python) is not installed"),
]

BAR_CHART = """
display({
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  width: 300, height: 200,
  data: { values: input.map(([month, sales]) => ({ month, sales })) },
  mark: 'bar',
  encoding: { x: { field: 'month', type: 'ordinal' }, y: { field: 'sales', type: 'quantitative' } },
});
input.length
"""


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    app = App.create(make_settings(workers=1))
    async with Client(build_server(app=app), mode="legacy") as connected:
        yield connected


def images_of(result: types.CallToolResult) -> list[object]:
    blocks = [block for block in result.content if isinstance(block, types.ImageContent)]
    return [PIL.open(io.BytesIO(base64.b64decode(block.data))) for block in blocks]


async def test_a_vega_lite_chart_comes_back_as_a_png_image_after_the_text(client: Client) -> None:
    result = await client.call_tool("execute_js", {"code": BAR_CHART, "input": [["Jan", 5], ["Feb", 9], ["Mar", 3]]})
    assert result.is_error is not True, result
    assert isinstance(result.content[0], types.TextContent) and isinstance(result.content[1], types.ImageContent)
    (image,) = images_of(result)
    assert image.format == "PNG"  # type: ignore[attr-defined]
    assert result.structured_content is not None
    (entry,) = result.structured_content["images"]
    assert entry["kind"] == "vega-lite" and (entry["width"], entry["height"]) == image.size  # type: ignore[attr-defined]
    assert "image 1: " in result.content[0].text and "bar" in result.content[0].text
    assert "iVBOR" not in str(result.structured_content)  # the image travels once, as its block


async def test_bars_are_drawn_in_vegas_default_blue(client: Client) -> None:
    result = await client.call_tool("execute_js", {"code": BAR_CHART, "input": [["A", 10], ["B", 10]]})
    (image,) = images_of(result)
    rgb = image.convert("RGB")  # type: ignore[attr-defined]
    colours = rgb.getcolors(maxcolors=1_000_000)
    blue = sum(
        count for count, (r, g, b) in colours if abs(r - 0x4C) < 24 and abs(g - 0x78) < 24 and abs(b - 0xA8) < 24
    )
    assert blue > 0.05 * rgb.size[0] * rgb.size[1]


async def test_svg_and_png_bytes_are_shown_in_order(client: Client) -> None:
    code = """
    display('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">' +
      '<rect width="120" height="40" fill="#e45756"/><text x="10" y="28" font-size="20">hi</text></svg>');
    display(Buffer.from(input, 'base64'));
    'two'
    """
    pixel = base64.b64encode(_png(3, 2)).decode()
    result = await client.call_tool("execute_js", {"code": code, "input": pixel})
    first, second = images_of(result)
    assert first.size == (120, 40) and second.size == (3, 2)  # type: ignore[attr-defined]
    assert result.structured_content is not None
    assert [entry["kind"] for entry in result.structured_content["images"]] == ["svg", "png"]


async def test_a_chart_that_loads_external_data_fails_saying_to_inline_it(client: Client) -> None:
    code = "display({ mark: 'point', data: { url: 'https://example.com/data.csv' } }); 1"
    result = await client.call_tool("execute_js", {"code": code})
    assert result.is_error is True and result.structured_content is not None
    message = result.structured_content["error"]["message"]
    assert result.structured_content["error"]["name"] == "DisplayError" and "image 1" in message
    assert "values" in message or "inline" in message
    assert not images_of(result)


def _png(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    PIL.new("RGB", (width, height), (10, 20, 30)).save(buffer, format="PNG")
    return buffer.getvalue()
