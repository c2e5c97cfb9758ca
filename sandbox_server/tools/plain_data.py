"""A result as compact JSON, when JSON says everything its Node rendering says.

Code mode returns what a model reads next, so its result is shown in the fewest tokens that lose nothing: one line
of JSON instead of Node's indented rendering (``{"team":[["Ada","role: engineer"]]}`` for ``{\\n  team: [ [ 'Ada',
'role: engineer' ] ]\\n}``), about a third fewer tokens on the real servers of the ``real_tokens`` study. JSON
cannot hold everything a JavaScript value may be, and the structured result maps what it cannot hold (``undefined``
left out, ``NaN`` and BigInt as strings, a Map as an object, a Date as its ISO text). So the rendering is read back:
only when it is plain data (objects, arrays, strings, numbers, booleans, null) equal to the JSON value, item by item,
is the JSON shown; anything else (a Date, ``undefined``, ``NaN``, ``12n``, ``[Object]`` past the depth, ``... more
items``, a class name, a cycle) keeps Node's rendering.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["compact_json"]

_MAX_DEPTH = 64
"""Deeper than this, the rendering is kept (Node's own depth limit stops far sooner)."""
_SPACE = re.compile(r"\s*")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A key Node shows unquoted (``isIdentifierKey`` in ``js_runtime/inspect.js``)."""
_PLAIN_RUNS = {quote: re.compile(f"[^{quote}\\\\\n]+") for quote in ("'", '"', "`")}
"""Characters a string quoted with each quote holds as they are (up to its quote, a backslash or a line break)."""
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "v": "\v", "'": "'", '"': '"', "`": "`", "\\": "\\"}
_INVISIBLE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""Characters JSON may leave raw that Node's rendering escapes (C1 controls, lone surrogates) or that would break
the line: escaped here too."""


class _NotPlain(Exception):
    """The rendering shows something that is not plain JSON data."""


@dataclass(frozen=True, slots=True)
class _Number:
    """A number as Node wrote it, so that the JSON shows the same digits (``1e-7``, not Python's ``1e-07``)."""

    text: str

    @property
    def value(self) -> float:
        return float(self.text)


class _Reader:
    """Reads the plain-data part of Node's ``util.inspect`` syntax; raises :class:`_NotPlain` on anything else."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def skip(self) -> None:
        found = _SPACE.match(self.text, self.at)
        self.at = found.end() if found else self.at

    def take(self, expected: str) -> bool:
        self.skip()
        if self.text.startswith(expected, self.at):
            self.at += len(expected)
            return True
        return False

    def value(self, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise _NotPlain
        self.skip()
        char = self.text[self.at : self.at + 1]
        if char == "{":
            return self.members(depth)
        if char == "[":
            return self.items(depth)
        if char in ("'", '"', "`"):
            return self.strings()
        for word, meaning in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(word, self.at):
                self.at += len(word)
                return meaning
        found = _NUMBER.match(self.text, self.at)
        if found is None:
            raise _NotPlain
        self.at = found.end()
        return _Number(found.group())

    def members(self, depth: int) -> dict[str, Any]:
        self.at += 1
        found: dict[str, Any] = {}
        if self.take("}"):
            return found
        while True:
            self.skip()
            quote = self.text[self.at : self.at + 1]
            key_match = _KEY.match(self.text, self.at)
            if quote in ("'", '"', "`"):
                key = self.string()
            elif key_match is not None:
                key, self.at = key_match.group(), key_match.end()
            else:
                raise _NotPlain
            if key in found or not self.take(":"):
                raise _NotPlain
            found[key] = self.value(depth + 1)
            if self.take("}"):
                return found
            if not self.take(","):
                raise _NotPlain

    def items(self, depth: int) -> list[Any]:
        self.at += 1
        found: list[Any] = []
        if self.take("]"):
            return found
        while True:
            found.append(self.value(depth + 1))
            if self.take("]"):
                return found
            if not self.take(","):
                raise _NotPlain

    def strings(self) -> str:
        """A string, or a long one Node shows as pieces joined by ``+``."""
        text = self.string()
        while self.take("+"):
            self.skip()
            if self.text[self.at : self.at + 1] not in ("'", '"', "`"):
                raise _NotPlain
            text += self.string()
        return text

    def string(self) -> str:
        quote, text, at = self.text[self.at], self.text, self.at + 1
        out: list[str] = []
        while at < len(text):
            char = text[at]
            if char == quote:
                self.at = at + 1
                return "".join(out)
            if char == "\\":
                code = text[at + 1 : at + 2]
                if code in _ESCAPES:
                    out.append(_ESCAPES[code])
                    at += 2
                    continue
                width = {"x": 2, "u": 4}.get(code)
                digits = text[at + 2 : at + 2 + width] if width else ""
                if not width or len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                    raise _NotPlain
                out.append(chr(int(digits, 16)))
                at += 2 + width
                continue
            if char == "\n":
                raise _NotPlain
            run = _PLAIN_RUNS[quote].match(text, at)
            end = run.end() if run and run.end() > at else at + 1
            out.append(text[at:end])
            at = end
        raise _NotPlain


def _same(shown: Any, value: Any) -> bool:
    """Whether the rendering's data is the JSON value, with the same types and key order."""
    if isinstance(shown, _Number):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        try:
            number, other = shown.value, float(value)
        except OverflowError:
            return False
        return number == other and math.copysign(1, number) == math.copysign(1, other)
    if shown is None or isinstance(shown, bool | str):
        return type(shown) is type(value) and shown == value
    if isinstance(shown, list):
        return isinstance(value, list) and len(shown) == len(value) and all(map(_same, shown, value))
    return (
        isinstance(value, dict)
        and list(shown) == list(value)
        and all(_same(item, value[key]) for key, item in shown.items())
    )


def _dumped(shown: Any) -> str:
    if isinstance(shown, _Number):
        return shown.text
    if isinstance(shown, list):
        return "[" + ",".join(_dumped(item) for item in shown) + "]"
    if isinstance(shown, dict):
        return "{" + ",".join(_dumped(key) + ":" + _dumped(item) for key, item in shown.items()) + "}"
    return json.dumps(shown, ensure_ascii=False)


def compact_json(rendered: str, value: Any) -> str | None:
    """``value`` (a result's JSON form) as one line of compact JSON, when ``rendered`` (its Node rendering, not
    shortened) shows an object or array of plain data equal to it; None when the rendering says more (or other)."""
    if not rendered.startswith(("{", "[")):
        return None
    reader = _Reader(rendered)
    try:
        shown = reader.value(0)
    except (_NotPlain, RecursionError):
        return None
    reader.skip()
    if reader.at != len(rendered) or not _same(shown, value):
        return None
    return _INVISIBLE.sub(lambda found: f"\\u{ord(found.group()):04x}", _dumped(shown))
