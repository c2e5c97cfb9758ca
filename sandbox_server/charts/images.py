"""Image sizes read from file headers: PNG, JPEG and GIF, without decoding and without Pillow.

Bytes that ``display()`` passes through unchanged need their size for the tool result, and images embedded in an
SVG as ``data:`` URIs need theirs checked before the rasteriser decodes them (a small compressed PNG can announce
50000x50000 pixels). Only the headers are read; a truncated or malformed header gives None.
"""

from __future__ import annotations

import struct

__all__ = ["embedded_image_size", "image_size"]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Start-of-frame markers carry the size; C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding) do not.
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
# Markers without a length field: TEM, RST0-7, SOI, EOI.
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xDA)})


def image_size(data: bytes) -> tuple[str, int, int] | None:
    """``("png" | "jpeg", width, height)`` of PNG or JPEG bytes, from their headers; None for anything else."""
    if data.startswith(_PNG_SIGNATURE):
        return _png_size(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


def embedded_image_size(data: bytes) -> tuple[str, int, int] | None:
    """Like :func:`image_size`, and GIF too (the formats an SVG may embed as ``data:`` URIs)."""
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return ("gif", width, height) if width and height else None
    return image_size(data)


def _png_size(data: bytes) -> tuple[str, int, int] | None:
    # The first chunk must be IHDR: length (13), type, then width and height as big-endian 32-bit integers.
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", data[16:24])
    return ("png", width, height) if width and height else None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte before a marker
            position += 1
            continue
        if marker in _JPEG_STANDALONE:
            position += 2
            continue
        (length,) = struct.unpack(">H", data[position + 2 : position + 4])
        if length < 2:
            return None
        if marker in _JPEG_SOF:
            if position + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[position + 5 : position + 9])
            return ("jpeg", width, height) if width and height else None
        position += 2 + length
    return None
