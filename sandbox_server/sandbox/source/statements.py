"""The program's last top-level statement, which a REPL-like result needs, and the shortcut for one-line
expressions."""

from __future__ import annotations

import re
from collections.abc import Sequence

import tree_sitter

from sandbox_server.sandbox.source import boundaries
from sandbox_server.sandbox.source.edits import (
    _captures,
    _read,
)
from sandbox_server.sandbox.source.model import (
    Statement,
    _Offsets,
    _statement,
    _utf8,
)

# Code made of these characters alone, and none of the words below, has no TypeScript and is at most one
# expression statement: no statement separators, blocks, strings, comments or regular expressions.
_SIMPLE = re.compile(r"[\w \t.,+\-*%()\[\]=&|^~>]*")
_SIMPLE_STOP_WORDS = re.compile(
    r"\b(?:as|satisfies|type|declare|export|import|var|let|const|function|class|if|for|while|do|switch|try"
    r"|return|throw|break|continue|debugger|with|using|enum)\b"
)

_USING = re.compile(r"(?:await\s+)?using\s+[\w$]")

# Where an expression (or a statement) begins, nothing of the previous one continues.
_IGNORED_STATEMENTS = frozenset({"comment", "empty_statement", "hash_bang_line", "html_comment"})


def _simple_expression(code: str) -> Statement | None:
    """The statement of a one-line expression without TypeScript (``1+1``), found without parsing."""
    text = code.strip(" \t\r\n")
    if not text or _SIMPLE.fullmatch(text) is None or _SIMPLE_STOP_WORDS.search(text) is not None:
        return None
    if not (text[-1].isalnum() or text[-1] in "_$)]"):
        return None  # `1 +`: let the parser (and then V8) see the unfinished expression
    depth = 0
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth < 0:
                return None
    if depth != 0:
        return None
    start = code.index(text[0])
    return _statement("expression", code, start, start + len(text))


def _last_statement(
    parser: tree_sitter.Parser,
    code: str,
    root: tree_sitter.Node,
    offsets: _Offsets,
    blanked: Sequence[tuple[int, int, bool]] = (),
) -> Statement | None:
    """The last top-level statement under ``root`` (a tree without errors), comments, `;` and blanks aside."""
    for node in reversed(root.named_children):
        if node.type in _IGNORED_STATEMENTS:
            continue
        if any(start <= node.start_byte and node.end_byte <= end for start, end, _ in blanked):
            continue
        start, end = offsets.index(node.start_byte), offsets.index(node.end_byte)
        if node.type == "expression_statement":
            expression = next(child for child in node.named_children if child.type != "comment")
            expression_start = offsets.index(expression.start_byte)
            if expression.start_byte != node.start_byte or _USING.match(code, expression_start):
                # The grammar reads `using x = f()` as an assignment: it is a declaration.
                return _statement("other", code, start, end)
            start, end = expression_start, offsets.index(expression.end_byte)
            # `x as T` blanked to `x` and spaces, or to `x ;` and spaces where the statement ends there.
            end = start + len(code[start:end].rstrip().removesuffix(";").rstrip())
            if code[start] != "{":
                return _statement("expression", code, start, end)
            # tree-sitter reads `{ a: 1, b: 2 }` as an object where JavaScript sees a block (and fails).
            return _statement("object_literal_block" if expression.type == "object" else "other", code, start, end)
        if node.type == "statement_block" and _reads_as_object(parser, _utf8(code[start:end])):
            return _statement("object_literal_block", code, start, end)
        return _statement("other", code, start, end)
    return None


def _object_root(parser: tree_sitter.Parser, braces: bytes) -> tree_sitter.Node | None:
    """The tree of ``(braces)`` when that is one object literal, else None."""
    root = parser.parse(b"(" + braces + b")").root_node
    if root.has_error or root.named_child_count != 1:
        return None
    statement = root.named_children[0]
    if statement.type != "expression_statement" or statement.end_byte != root.end_byte:
        return None
    inner = statement.named_children[0]
    if inner.type != "parenthesized_expression" or inner.named_child_count != 1:
        return None
    return root if inner.named_children[0].type == "object" else None


def _reads_as_object(parser: tree_sitter.Parser, braces: bytes) -> bool:
    return _object_root(parser, braces) is not None


_TAIL_CANDIDATES = 8


def _split_object_tail(
    parser: tree_sitter.Parser, data: bytes, root: tree_sitter.Node
) -> tuple[list[tuple[boundaries.Reading, int]], tuple[int, int]] | None:
    """Read code that fails to parse as code followed by an object literal, if it is that.

    ``{ s, n: s * 2 }`` at the end of a program is a syntax error as a block, yet a REPL shows it as an
    object. Gives the trees of the code before it and of the parenthesised literal (with the byte shift of
    each), and the literal's byte range; None when the code is not of that shape.
    """
    children = [child for child in root.children if child.type not in _IGNORED_STATEMENTS]
    if not children:
        return None
    end = children[-1].end_byte
    while end > 0 and data[end - 1] in b" \t\r\n;":
        end -= 1
    if end == 0 or data[end - 1] != ord("}"):
        return None
    rest = parser.parse(data[end:]).root_node
    if rest.has_error or any(child.type not in _IGNORED_STATEMENTS for child in rest.named_children):
        return None
    candidates: list[int] = []
    for child in reversed(children):
        if data[child.start_byte] == ord("{"):
            candidates.append(child.start_byte)
        if child.type == "ERROR":
            candidates.extend(
                inner.start_byte for inner in reversed(child.children) if data[inner.start_byte] == ord("{")
            )
        if len(candidates) >= _TAIL_CANDIDATES:
            break
    for start in candidates[:_TAIL_CANDIDATES]:
        literal = _object_root(parser, data[start:end])
        if literal is None:
            continue
        before = _read(parser, data[:start])
        if before.root.has_error:
            return None
        return [(before, 0), (boundaries.Reading(literal, _captures(literal)), start - 1)], (start, end)
    return None
