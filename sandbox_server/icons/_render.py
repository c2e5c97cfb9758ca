"""Rasterise the icons' geometry into the 48x48 PNG files that sit beside each SVG.

Run once after changing an icon (``python -m sandbox_server.icons._render``) and commit the PNGs; nothing here
runs when the server does. The shapes below restate the SVG files in a 24x24 coordinate space. Each shape is a
signed distance function (negative inside), sampled 4x4 per pixel for anti-aliasing, so no imaging library is
needed: the PNG is assembled with ``zlib`` and ``struct``.
"""

from __future__ import annotations

import itertools
import math
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ICONS", "Icon", "encode_png", "rasterise", "render_all"]

SIZE = 48
SUPERSAMPLING = 4
VIEWBOX = 24.0

Shape = Callable[[float, float], float]
Colour = tuple[int, int, int]


def capsule(ax: float, ay: float, bx: float, by: float, width: float) -> Shape:
    """A stroked line segment with round caps (a capsule)."""

    def distance(x: float, y: float) -> float:
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        return math.hypot(x - (ax + t * dx), y - (ay + t * dy)) - width / 2

    return distance


def polyline(points: Sequence[tuple[float, float]], width: float) -> Shape:
    """Joined segments with round caps and joins, like an SVG path with ``stroke-linejoin="round"``."""
    parts = [capsule(*a, *b, width) for a, b in itertools.pairwise(points)]
    return union(*parts)


def disc(cx: float, cy: float, r: float) -> Shape:
    """A filled circle."""
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def box(x0: float, y0: float, width: float, height: float, rx: float) -> Shape:
    """A filled rectangle with rounded corners."""
    cx, cy, hx, hy = x0 + width / 2, y0 + height / 2, width / 2, height / 2

    def distance(x: float, y: float) -> float:
        qx, qy = abs(x - cx) - hx + rx, abs(y - cy) - hy + rx
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - rx

    return distance


def outline(shape: Shape, width: float) -> Shape:
    """The boundary of ``shape`` stroked with ``width`` centred on it."""
    return lambda x, y: abs(shape(x, y)) - width / 2


def union(*shapes: Shape) -> Shape:
    """Every point inside any of ``shapes``."""
    return lambda x, y: min(shape(x, y) for shape in shapes)


def hex_colour(text: str) -> Colour:
    """``#RRGGBB`` as a tuple of three bytes."""
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


@dataclass(frozen=True)
class Icon:
    """A glyph in one colour on a rounded square in another."""

    background: Colour
    ink: Colour
    glyph: Shape


BACKGROUND = box(1, 1, 22, 22, 5)
WHITE = hex_colour("#FFFFFF")

ICONS: dict[str, Icon] = {
    "server": Icon(
        hex_colour("#4F46E5"),
        WHITE,
        union(polyline([(6, 9), (6, 17), (18, 17), (18, 9)], 2), disc(12, 11.5, 2.6)),
    ),
    "add": Icon(hex_colour("#059669"), WHITE, union(capsule(12, 7, 12, 17, 2.5), capsule(7, 12, 17, 12, 2.5))),
    "divide": Icon(
        hex_colour("#2563EB"),
        WHITE,
        union(capsule(7, 12, 17, 12, 2.5), disc(12, 7.5, 1.6), disc(12, 16.5, 1.6)),
    ),
    "date_diff": Icon(
        hex_colour("#DC2626"),
        WHITE,
        union(
            outline(box(6, 7, 12, 11, 1.5), 1.8),
            capsule(9.5, 5.5, 9.5, 8.5, 1.8),
            capsule(14.5, 5.5, 14.5, 8.5, 1.8),
            capsule(9.5, 14, 14.5, 14, 1),
            disc(9.5, 14, 1.3),
            disc(14.5, 14, 1.3),
        ),
    ),
    "execute_js": Icon(
        hex_colour("#CA8A04"),
        hex_colour("#1C1917"),
        union(polyline([(7, 8), (11, 12), (7, 16)], 2.2), capsule(13, 16, 17, 16, 2.2)),
    ),
}


def rasterise(icon: Icon, size: int = SIZE) -> bytes:
    """RGBA pixels, row by row, with straight (not premultiplied) alpha."""
    scale = VIEWBOX / size
    samples = SUPERSAMPLING * SUPERSAMPLING
    pixels = bytearray()
    for row in range(size):
        for column in range(size):
            red = green = blue = covered = 0
            for sy in range(SUPERSAMPLING):
                for sx in range(SUPERSAMPLING):
                    x = (column + (sx + 0.5) / SUPERSAMPLING) * scale
                    y = (row + (sy + 0.5) / SUPERSAMPLING) * scale
                    if BACKGROUND(x, y) > 0:
                        continue
                    colour = icon.ink if icon.glyph(x, y) <= 0 else icon.background
                    red, green, blue, covered = red + colour[0], green + colour[1], blue + colour[2], covered + 1
            if covered:
                alpha = round(255 * covered / samples)
                pixels += bytes((round(red / covered), round(green / covered), round(blue / covered), alpha))
            else:
                pixels += bytes(4)
    return bytes(pixels)


def encode_png(rgba: bytes, width: int, height: int) -> bytes:
    """A PNG file (8-bit RGBA, no filtering) holding ``rgba``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    stride = width * 4
    raw = b"".join(b"\x00" + rgba[row * stride : (row + 1) * stride] for row in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def render_all(folder: Path = Path(__file__).parent) -> list[Path]:
    """Write ``<stem>.png`` for every icon into ``folder``; returns the paths written."""
    written = []
    for stem, icon in ICONS.items():
        path = folder / f"{stem}.png"
        path.write_bytes(encode_png(rasterise(icon), SIZE, SIZE))
        written.append(path)
    return written


if __name__ == "__main__":
    render_all()
