"""Lone surrogate escapes in a request, carried past the SDK's JSON parser to the code as JavaScript would read them.

``JSON.stringify`` writes a string that holds half of a surrogate pair as ``"a\\ud800b"``, and ``JSON.parse`` (or
Python's ``json``) reads it back as that string. The SDK's transports parse with pydantic's JSON parser, which
refuses such an escape: over stdio the line became a parse error with ``id: null``, and over HTTP (2025 revisions)
a ``400`` with ``id: null``, so the client never learnt which of its requests failed.

So before the SDK parses a line or a body, :func:`protect` rewrites each lone surrogate escape into a mark the
parser accepts: ``\\ufdd0`` (a noncharacter), a random key chosen when the process starts, then the four hex digits
of the surrogate. After parsing, :func:`restore` turns every mark in the request's values back into the lone
surrogate. Without the key, a client cannot write a mark that :func:`restore` would change; and a mark could only
ever give it a lone surrogate, which it can send as an escape anyway.

The answer to such a request cannot carry a lone surrogate either (JSON in UTF-8 has no way to write one): what
the server echoes of the request comes back with U+FFFD in its place (:func:`replaced`), as the code's own output
does.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

__all__ = ["protect", "replaced", "restore"]

_KEY = secrets.token_hex(8)
_MARK = "\ufdd0" + _KEY
_MARK_ESCAPE = b"\\ufdd0" + _KEY.encode("ascii")
# A JSON escape: a surrogate pair (kept), a lone surrogate (marked), or any other escape (kept, so that `\\` before
# `ud800` is read as the escaped backslash it is).
_ESCAPE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u([dD][89a-fA-F][0-9a-fA-F]{2})|\\.", re.DOTALL
)
_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_MARKED = re.compile(re.escape(_MARK) + "([dD][89a-fA-F][0-9a-fA-F]{2})")
_LONE = re.compile("[\ud800-\udfff]")


def protect(data: bytes | bytearray) -> bytes | None:
    """``data`` (a JSON text) with each lone surrogate escape marked, or None when it has none."""
    if _MAYBE_SURROGATE.search(data) is None:
        return None
    found = False

    def mark(match: re.Match[bytes]) -> bytes:
        nonlocal found
        if match.group(1) is None:
            return match.group(0)
        found = True
        return _MARK_ESCAPE + match.group(1)

    marked = _ESCAPE.sub(mark, bytes(data))
    return marked if found else None


def restore(value: Any) -> Any:
    """``value`` (parsed JSON) with every mark, in keys and strings at any depth, back to its lone surrogate."""
    return _each_string(value, lambda text: _MARKED.sub(_surrogate, text) if _MARK in text else text)


def replaced(value: Any) -> Any:
    """``value`` (JSON-like) with every lone surrogate in its keys and strings replaced by U+FFFD."""
    return _each_string(value, lambda text: _LONE.sub("\ufffd", text))


def _surrogate(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def _each_string(value: Any, change: Any) -> Any:
    """A copy of ``value`` with ``change`` applied to each string; containers are walked with a stack, not recursion
    (a request's values may nest as deep as its parser allowed)."""
    if isinstance(value, str):
        return change(value)
    if not isinstance(value, dict | list):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, list[Any] | dict[Any, Any], Any]] = [(value, root, 0)]
    while stack:
        node, parent, slot = stack.pop()
        if isinstance(node, str):
            parent[slot] = change(node)
        elif isinstance(node, dict):
            copy: dict[Any, Any] = {}
            parent[slot] = copy
            for key, item in node.items():
                new_key = change(key) if isinstance(key, str) else key
                copy[new_key] = None
                stack.append((item, copy, new_key))
        elif isinstance(node, list):
            items: list[Any] = [None] * len(node)
            parent[slot] = items
            stack.extend((item, items, index) for index, item in enumerate(node))
        else:
            parent[slot] = node
    return root[0]
