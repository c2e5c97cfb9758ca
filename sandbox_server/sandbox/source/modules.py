"""Module syntax in a script: ``import`` statements become calls of the runtime's loader, and ``export`` goes.

The code runs as a script (or an async function body), where V8 refuses ``import`` and ``export``; models write
both out of habit (``import { createHash } from 'node:crypto'``, ``export default function main() {...}``). Before
the analysis, each top-level import statement is rewritten on its own lines into a declaration that reads the
module's namespace from ``__importStatic('x')`` (a Node built-in's exports with ``default``, an npm package's ES
module namespace, or a CommonJS package's exports as ``default``), so that an import resolves as Node resolves an
import (its ``import`` conditions, not ``require``'s). ``export`` (with ``default``) in front of a declaration or a
value is blanked, so the declaration runs as one. A dynamic ``import('x')`` becomes ``__import('x')``.

Line numbers stay as they were (a rewritten statement keeps its line breaks); columns after a rewritten import
on its own line can move, which only a second statement on that line would show. Type-only imports are left to
the TypeScript blanking, and re-exports (``export * from 'x'``) to V8's own error.
"""

from __future__ import annotations

import re

import tree_sitter

from sandbox_server.sandbox.source.model import _LANGUAGE, _utf8

__all__ = ["DYNAMIC_IMPORT_NAME", "STATIC_IMPORT_NAME", "rewrite_modules"]

DYNAMIC_IMPORT_NAME = "__import"
"""The runtime's function a dynamic ``import(...)`` is rewritten to call."""
STATIC_IMPORT_NAME = "__importStatic"
"""The runtime's function an import statement is rewritten to call: it returns the module's namespace."""

_MODULE_WORD = re.compile(rb"\b(?:import|export)\b")
_PARSER = tree_sitter.Parser(_LANGUAGE)


def rewrite_modules(code: str) -> str:
    """``code`` with its module syntax turned into what a script can run; the very same string when it has none."""
    data = _utf8(code)
    if _MODULE_WORD.search(data) is None:
        return code
    root = _PARSER.parse(data).root_node
    edits: list[tuple[int, int, bytes]] = []
    for node in root.children:
        if node.type == "import_statement" and not node.has_error:
            replacement = _require_for(node, data)
            if replacement is not None:
                edits.append((node.start_byte, node.end_byte, replacement))
        elif node.type == "export_statement" and not node.has_error:
            edits.extend(_export_blanks(node, data))
    edits.extend(_dynamic_imports(root))
    if not edits:
        return code
    pieces: list[bytes] = []
    done = 0
    for start, end, text in sorted(edits):
        if start < done:
            continue
        pieces += [data[done:start], text]
        done = end
    pieces.append(data[done:])
    return b"".join(pieces).decode("utf-8", "surrogatepass")


def _text(node: tree_sitter.Node, data: bytes) -> bytes:
    return data[node.start_byte : node.end_byte]


def _require_for(statement: tree_sitter.Node, data: bytes) -> bytes | None:
    """The declaration an import statement stands for, with its line breaks; None for a type-only one."""
    children = statement.children
    if any(child.type == "type" for child in children):
        return None
    source = next((child for child in children if child.type == "string"), None)
    if source is None:
        return None
    call = STATIC_IMPORT_NAME.encode() + b"(" + _text(source, data) + b")"
    clause = next((child for child in children if child.type == "import_clause"), None)
    breaks = b"\n" * _text(statement, data).count(b"\n")
    if clause is None:
        return call + b";" + breaks
    default: bytes | None = None
    namespace: bytes | None = None
    names: list[bytes] = []
    for part in clause.named_children:
        if part.type == "identifier":
            default = _text(part, data)
        elif part.type == "namespace_import":
            name = next((child for child in part.named_children if child.type == "identifier"), None)
            if name is not None:
                namespace = _text(name, data)
        elif part.type == "named_imports":
            names.extend(_binding(specifier, data) for specifier in part.named_children if _is_value(specifier))
    if namespace is not None:
        tail = b"" if default is None else b", " + default + b" = " + namespace + b".default"
        return b"const " + namespace + b" = " + call + tail + b";" + breaks
    if default is not None:
        names.insert(0, b"default: " + default)
    if not names:
        return call + b";" + breaks
    return b"const { " + b", ".join(names) + b" } = " + call + b";" + breaks


def _is_value(specifier: tree_sitter.Node) -> bool:
    return specifier.type == "import_specifier" and not any(child.type == "type" for child in specifier.children)


def _binding(specifier: tree_sitter.Node, data: bytes) -> bytes:
    """``a`` or ``a: b`` for ``import { a }`` or ``import { a as b }``."""
    name = specifier.child_by_field_name("name")
    alias = specifier.child_by_field_name("alias")
    if name is None:
        return _text(specifier, data)
    if alias is None:
        return _text(name, data)
    return _text(name, data) + b": " + _text(alias, data)


def _blank(node: tree_sitter.Node) -> tuple[int, int, bytes]:
    return node.start_byte, node.end_byte, b" " * (node.end_byte - node.start_byte)


def _export_blanks(statement: tree_sitter.Node, data: bytes) -> list[tuple[int, int, bytes]]:
    """Blanks for ``export`` (and ``default``) before a declaration or value, or for a whole ``export { a, b }``."""
    if statement.child_by_field_name("source") is not None:
        return []  # `export * from 'x'`: nothing to run it as
    if statement.child_by_field_name("declaration") is not None or statement.child_by_field_name("value") is not None:
        return [_blank(child) for child in statement.children if child.type in ("export", "default")]
    if any(child.type == "export_clause" for child in statement.named_children):
        text = _text(statement, data)
        start, end = statement.start_byte, statement.end_byte
        return [(start, end, re.sub(rb"[^\n]", b" ", text))]
    return []


_DYNAMIC_IMPORTS = tree_sitter.Query(_LANGUAGE, "(call_expression function: (import) @import)")


def _dynamic_imports(root: tree_sitter.Node) -> list[tuple[int, int, bytes]]:
    """The ``import`` of each ``import(...)`` call, renamed to the runtime's function."""
    nodes = tree_sitter.QueryCursor(_DYNAMIC_IMPORTS).captures(root).get("import", [])
    return [(node.start_byte, node.end_byte, DYNAMIC_IMPORT_NAME.encode()) for node in nodes]
