"""The icons: each stem ships a valid 48x48 PNG and a well-formed 24x24 SVG, published as data URIs."""

from __future__ import annotations

import base64
import struct
import zlib
from xml.etree import ElementTree

import pytest

from sandbox_server.icons import STEMS, _render, server_icons, tool_icons

ALL_STEMS = ["server", "add", "divide", "date_diff", "execute_js"]


def decode(src: str, mime_type: str) -> bytes:
    prefix = f"data:{mime_type};base64,"
    assert src.startswith(prefix)
    return base64.b64decode(src[len(prefix) :], validate=True)


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, position = [], 8
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind, body = data[position + 4 : position + 8], data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind!r}"
        chunks.append((kind, body))
        position += 12 + length
    return chunks


def test_the_icon_set_covers_the_server_and_every_tool() -> None:
    assert set(ALL_STEMS) == STEMS


@pytest.mark.parametrize("stem", ALL_STEMS)
def test_each_stem_offers_a_png_then_an_svg(stem: str) -> None:
    icons = tool_icons(stem)
    assert [(icon.mime_type, icon.sizes) for icon in icons] == [("image/png", ["48x48"]), ("image/svg+xml", ["any"])]


@pytest.mark.parametrize("stem", ALL_STEMS)
def test_the_png_data_uri_decodes_to_a_48_by_48_rgba_image(stem: str) -> None:
    data = decode(tool_icons(stem)[0].src, "image/png")
    chunks = png_chunks(data)
    kind, header = chunks[0]
    assert kind == b"IHDR"
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (width, height, depth, colour_type, interlace) == (48, 48, 8, 6, 0)
    assert chunks[-1] == (b"IEND", b"")
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(pixels) == 48 * (1 + 48 * 4)


@pytest.mark.parametrize("stem", ALL_STEMS)
def test_the_svg_data_uri_is_well_formed_with_a_24_unit_view_box(stem: str) -> None:
    root = ElementTree.fromstring(decode(tool_icons(stem)[1].src, "image/svg+xml"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox") == "0 0 24 24"


@pytest.mark.parametrize("stem", ALL_STEMS)
def test_the_committed_png_matches_what_the_render_script_draws(stem: str) -> None:
    chunks = png_chunks(decode(tool_icons(stem)[0].src, "image/png"))
    pixels = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    rows = [pixels[row * 193 + 1 : (row + 1) * 193] for row in range(48)]
    assert all(pixels[row * 193] == 0 for row in range(48))
    assert b"".join(rows) == _render.rasterise(_render.ICONS[stem])


def test_the_png_is_opaque_in_the_middle_and_transparent_in_the_corner() -> None:
    rgba = _render.rasterise(_render.ICONS["add"])
    assert rgba[3] == 0  # top-left corner, outside the rounded square
    centre = (24 * 48 + 24) * 4
    assert rgba[centre + 3] == 255


def test_server_icons_are_the_server_stem() -> None:
    assert server_icons() == tool_icons("server")


def test_changing_a_returned_icon_does_not_change_the_next_answer() -> None:
    first = tool_icons("add")
    first[0].src = "data:image/png;base64,"
    first.clear()
    assert len(tool_icons("add")) == 2
    assert tool_icons("add")[0].src != "data:image/png;base64,"


def test_an_unknown_stem_is_a_value_error_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"no icon named 'nope'.*date_diff"):
        tool_icons("nope")
