"""Icons for the server and its tools, shipped as package data and published as ``data:`` URIs.

Each stem has a ``<stem>.svg`` (24x24 viewBox) and a ``<stem>.png`` (48x48, rendered from the same geometry by
``_render.py``). Clients must support PNG and should support SVG, so both are offered, PNG first. A glyph sits on
an opaque coloured square, which keeps it readable on light and dark backgrounds alike.
"""

from __future__ import annotations

import base64
from functools import cache
from importlib.resources import files

import mcp_types as types

__all__ = ["STEMS", "server_icons", "tool_icons"]

STEMS = frozenset({"server", "add", "divide", "date_diff", "execute_js"})
"""Every icon stem that has image files in this package."""

_FORMATS = (("png", "image/png", "48x48"), ("svg", "image/svg+xml", "any"))


@cache
def _icons(stem: str) -> tuple[types.Icon, ...]:
    if stem not in STEMS:
        raise ValueError(f"no icon named {stem!r}; known icons: {', '.join(sorted(STEMS))}")
    folder = files(__name__)
    icons = []
    for extension, mime_type, size in _FORMATS:
        data = (folder / f"{stem}.{extension}").read_bytes()
        src = f"data:{mime_type};base64,{base64.b64encode(data).decode('ascii')}"
        icons.append(types.Icon(src=src, mime_type=mime_type, sizes=[size]))
    return tuple(icons)


def tool_icons(stem: str) -> list[types.Icon]:
    """The PNG and SVG icons for ``stem``, as ``data:`` URIs.

    Raises:
        ValueError: No icon files exist for ``stem``.
    """
    return [icon.model_copy(deep=True) for icon in _icons(stem)]


def server_icons() -> list[types.Icon]:
    """The icons of the server itself."""
    return tool_icons("server")
