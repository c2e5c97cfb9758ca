"""What an analysis gives (:class:`Analysis`, :class:`Statement`, :class:`Unsupported`), the grammar, and positions:
byte offsets of the parsed text as string indices, lines and UTF-16 columns."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Literal

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

__all__ = ["Analysis", "Statement", "StatementKind", "Unsupported"]

StatementKind = Literal["expression", "object_literal_block", "other"]


@dataclass(frozen=True, slots=True)
class Statement:
    """The last top-level statement of a program.

    ``start`` and ``end`` are indices into :attr:`Analysis.code` (Python string indices). For an
    ``"expression"`` they cover the expression without its semicolon; for an ``"object_literal_block"`` the
    braces and what is between them; for ``"other"`` the whole statement. ``line`` and ``column`` are where
    ``start`` is, both counted from 1, the column in UTF-16 code units as JavaScript counts it.
    """

    kind: StatementKind
    start: int
    end: int
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A TypeScript construct that cannot become JavaScript by blanking, and how to write it instead.

    ``line`` and ``column`` are where it starts, counted from 1 (the column in UTF-16 code units).
    """

    construct: str
    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class Analysis:
    """The outcome of :func:`analyze`.

    Attributes:
        code: The code to run: the input itself when no TypeScript syntax was found; otherwise the input with
            TypeScript-only syntax replaced by spaces (line breaks kept), every other character at its line
            and column.
        typescript: Whether TypeScript-only syntax was found and blanked.
        unsupported: The first construct that has no blank-only translation, if any: such code is not to run
            (its ``message`` says what to write instead). Set whether or not other TypeScript was found.
        last_statement: The last top-level statement of ``code``, or None when the code is empty or does not
            parse (tree-sitter's grammar also misses a few rare JavaScript forms, such as ``using`` as a
            variable name: such code comes back unchanged with no statement).
    """

    code: str
    typescript: bool
    unsupported: Unsupported | None
    last_statement: Statement | None


_LANGUAGE = tree_sitter.Language(tree_sitter_typescript.language_typescript())
_JAVASCRIPT = tree_sitter.Language(tree_sitter_javascript.language())
# tree-sitter's JavaScript grammar takes JSX, which V8 does not: code with JSX is no JavaScript here.
_JSX_QUERY = tree_sitter.Query(_JAVASCRIPT, "(jsx_element) @jsx (jsx_self_closing_element) @jsx")

# JavaScript line terminators: kept when blanking, counted when giving a line.
_LINE_BREAK = re.compile("\r\n|[\n\r\u2028\u2029]")
_BLANKABLE = re.compile("[^\n\r\u2028\u2029\U00010000-\U0010ffff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_CONTINUATION_BYTE = re.compile(rb"[\x80-\xbf]")


def _utf8(text: str) -> bytes:
    """The UTF-8 that tree-sitter reads; a lone surrogate (JSON allows one) passes as its three bytes."""
    return text.encode("utf-8", "surrogatepass")


class _Offsets:
    """Maps byte offsets of the UTF-8 text that tree-sitter read to indices of the Python string.

    A character's index is its byte offset less the UTF-8 continuation bytes before it (a character outside
    the BMP is one Python character, as a lone surrogate is).
    """

    def __init__(self, code: str, data: bytes) -> None:
        self._continuations: list[int] | None = None
        if len(data) != len(code):
            self._continuations = [match.start() for match in _CONTINUATION_BYTE.finditer(data)]

    def index(self, byte: int) -> int:
        if self._continuations is None:
            return byte
        return byte - bisect.bisect_left(self._continuations, byte)


def _position(code: str, index: int) -> tuple[int, int]:
    """The 1-based line and UTF-16 column of ``code[index]``."""
    before = code[:index]
    line = 1 + len(_LINE_BREAK.findall(before))
    line_start = 1 + max(before.rfind("\n"), before.rfind("\r"), before.rfind("\u2028"), before.rfind("\u2029"))
    text = before[line_start:]
    return line, 1 + len(text) + len(_ASTRAL.findall(text))


def _statement(kind: StatementKind, code: str, start: int, end: int) -> Statement:
    line, column = _position(code, start)
    return Statement(kind, start, end, line, column)
