"""Session cells: a program rewritten so that its top-level declarations outlive it and it can run again.

Calls of one session run one after another in the same isolate, like a notebook's cells. The runtime evaluates
each one as a script of its own (indirect eval, where ``const``, ``let`` and ``class`` stay local to that
evaluation) or as the body of an async function (top-level ``await`` or ``return``, where every declaration is
local to the function). So that what a cell declares is there for the next one, and a cell that declares the
same names again runs as well, each top-level declaration becomes a write to a global variable, and the runtime
declares those variables first, with ``var``, in a script of their own (the prelude, from :attr:`Cell.names`):

- ``const {a, b: [c]} = obj, d = 1;`` becomes ``;    ({a, b: [c]} = obj, d = 1);``: the keyword turns into
  a ``;`` (the statement may now start with ``(`` or ``[``, which would continue one that lacks its semicolon),
  spaces and, before an object pattern, the ``(`` that keeps it from reading as a block; the ``)`` goes after
  the last declarator. ``let x;`` becomes ``;  x=void 0;`` (running the cell again resets it, as a fresh
  ``let`` would); ``var x;`` loses its declarator (a ``var`` keeps its value).
- ``class C {...}`` becomes ``{class C {...}this.C=C}``: a block keeps the class's own binding for its body
  (static initialisers that name ``C`` see the class) and the rest of the cell, and later cells, see the
  global. ``this`` at a cell's top level is the global object on both paths, and no declaration can hide it.
- ``function f() {...}`` (``async``, generators) stays a declaration, hoisted within the cell as before (a call
  above it works), and gets ``;this.f=f;`` after it: as a script it is global already, but in strict mode and
  as an async function body it is local, and is published to the global when the cell reaches it, as Node's
  REPL does with top-level ``await``. Code of that same cell keeps the cell's own binding: a closure made
  there still calls this ``f`` after a later cell redefines it.
- A cell whose last statement was rewritten ends with a line ``;void 0`` (and :attr:`Cell.last_statement`
  names it), so that its result is ``undefined`` as a declaration's would be on either path.

Only statements at the program's top level change; ``for (const x of y)``, blocks and functions are left
alone (a ``var`` inside a top-level block stays local on the async path). Lines never move. Columns move only
on a line where characters were added (the ``)`` of a destructuring, ``=void 0``, ``{`` before a class, what
follows a class or function), and only after the added text, except that a class's first line shifts by the
one ``{``. What the cell loses: const-ness (a later assignment no longer throws) and the temporal dead zone
(using a name before its ``let`` reads the global instead of throwing). Names the runtime defines for every
call (``input``, ``files``, ``tools``) are defined again by the next call whatever a cell assigned to them.

Code that does not parse, or that V8 would refuse for its declarations (``const x;``, ``let {a};``, a name
declared twice with ``let``, ``const`` or ``class``, ``const let``), comes back unchanged, so that V8 reports the
error in its own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import tree_sitter

from sandbox_server.sandbox.source.edits import _blank
from sandbox_server.sandbox.source.model import _JAVASCRIPT, Statement, _Offsets, _statement, _utf8

__all__ = ["TRAILER", "Cell", "as_cell"]

TRAILER = "\n;void 0"
"""What ends a cell whose last statement was a declaration: its result is ``undefined``."""

_DECLARATION_WORD = re.compile(r"\b(?:const|let|var|class|function)\b")
_PARSER = tree_sitter.Parser(_JAVASCRIPT)
_IGNORED_STATEMENTS = frozenset({"comment", "empty_statement", "hash_bang_line", "html_comment"})
_FUNCTIONS = frozenset({"function_declaration", "generator_function_declaration"})
_VARIABLES = frozenset({"lexical_declaration", "variable_declaration"})


@dataclass(frozen=True, slots=True)
class Cell:
    """A program rewritten as a session cell (see the module docstring).

    Attributes:
        code: The code to run: the input itself when it declares nothing at its top level (or does not parse).
        names: The names the cell declares at its top level, in order, each once: the runtime declares them as
            global variables (``var``) before the cell runs. Empty when the code is unchanged.
        last_statement: The statement whose value is the cell's result, as indices into :attr:`code`: the one
            given, moved past what was added before it, or the added ``void 0`` of :data:`TRAILER`.
    """

    code: str
    names: tuple[str, ...]
    last_statement: Statement | None


class _Unchanged(Exception):
    """The code is to run as it is: V8 refuses its declarations, or they are of a shape not rewritten."""


def as_cell(code: str, last_statement: Statement | None = None) -> Cell:
    """Rewrite ``code`` (plain JavaScript: after module syntax and TypeScript are gone) as a session cell.

    Args:
        code: The code as it would run, with ``await`` and ``return`` allowed at its top level.
        last_statement: Its last statement as :func:`~sandbox_server.sandbox.source.analyze` found it, if any.
            A last statement that is an object literal (``{ a, b }``) is taken as it is, the code before it read
            on its own.

    Returns:
        The cell: the very same ``code`` and statement, with no names, when there is nothing to rewrite.
    """
    unchanged = Cell(code, (), last_statement)
    if _DECLARATION_WORD.search(code) is None:
        return unchanged
    tail = last_statement is not None and last_statement.kind == "object_literal_block"
    head = code[: last_statement.start] if tail and last_statement is not None else code
    data = _utf8(head)
    root = _PARSER.parse(data).root_node
    if root.has_error:
        return unchanged
    rewrite = _Rewrite(head, data)
    last_changed = False
    try:
        for node in root.named_children:
            if node.type in _IGNORED_STATEMENTS:
                continue
            last_changed = rewrite.statement(node)
        rewrite.check_names()
    except _Unchanged:
        return unchanged
    if not rewrite.edits:
        return unchanged
    if last_changed and not tail:
        rewrite.edits.append((len(head), len(head), TRAILER))
    new_code = rewrite.apply() + code[len(head) :]
    if last_changed and not tail:
        last: Statement | None = _statement("expression", new_code, len(new_code) - len("void 0"), len(new_code))
    elif last_statement is not None:
        last = rewrite.moved(new_code, last_statement)
    else:
        last = None
    return Cell(new_code, tuple(dict.fromkeys(rewrite.names)), last)


class _Rewrite:
    """The edits of one cell, as ``(start, end, text)`` in string indices, and the names it declares."""

    def __init__(self, code: str, data: bytes) -> None:
        self.code = code
        self.data = data
        self.offsets = _Offsets(code, data)
        self.edits: list[tuple[int, int, str]] = []
        self.names: list[str] = []
        self.lexical: list[str] = []
        self.other: set[str] = set()

    def index(self, node: tree_sitter.Node, end: bool = False) -> int:
        return self.offsets.index(node.end_byte if end else node.start_byte)

    def text(self, node: tree_sitter.Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")

    def statement(self, node: tree_sitter.Node) -> bool:
        """Rewrite one top-level statement; whether it was one to rewrite."""
        if node.type in _VARIABLES:
            self.declaration(node)
            return True
        is_class = node.type == "class_declaration"
        name = node.child_by_field_name("name")
        if not (is_class or node.type in _FUNCTIONS) or name is None or name.type != "identifier":
            return False
        text = self.declare(name, lexical=is_class)
        end = self.index(node.child_by_field_name("body") or node, end=True)
        if is_class:
            self.edits += [(self.index(node), self.index(node), "{"), (end, end, f"this.{text}={text}}}")]
        else:
            self.edits.append((end, end, f";this.{text}={text};"))
        return True

    def declaration(self, node: tree_sitter.Node) -> None:
        keyword = node.children[0]
        kind = keyword.type
        declarators = [child for child in node.named_children if child.type == "variable_declarator"]
        kept: list[tree_sitter.Node] = []
        for declarator in declarators:
            pattern = declarator.child_by_field_name("name")
            if pattern is None:
                raise _Unchanged
            has_value = declarator.child_by_field_name("value") is not None
            if not has_value and (kind == "const" or pattern.type != "identifier"):
                raise _Unchanged  # V8's "Missing initializer"
            for name in _bound_names(pattern):
                self.declare(name, lexical=kind != "var")
            if has_value or kind != "var":
                kept.append(declarator)
            if not has_value and kind != "var":
                end = self.index(pattern, end=True)
                self.edits.append((end, end, "=void 0"))
        first = kept[0].child_by_field_name("name") if kept else None
        opens = first is not None and first.type == "object_pattern"
        # `const` -> `;   (` or `;    `: as many columns as the keyword (all keywords here are ASCII).
        blank = ";" + " " * (keyword.end_byte - keyword.start_byte - 2) + ("(" if opens else " ")
        self.edits.append((self.index(keyword), self.index(keyword, end=True), blank))
        if opens:
            end = self.index(kept[-1], end=True)
            self.edits.append((end, end, ")"))
        self.drop(node, declarators, kept)

    def drop(self, node: tree_sitter.Node, declarators: list[tree_sitter.Node], kept: list[tree_sitter.Node]) -> None:
        """Blank the declarators that are not kept (a ``var`` without a value), and the commas they leave."""
        if len(kept) == len(declarators):
            return
        keep = {declarator.start_byte for declarator in kept}
        for declarator in declarators:
            if declarator.start_byte not in keep:
                start, end = self.index(declarator), self.index(declarator, end=True)
                self.edits.append((start, end, _blank(self.text(declarator))))
        seen_kept = False
        count = 0
        for child in node.children:
            if child.type == "variable_declarator":
                seen_kept = seen_kept or child.start_byte in keep
                count += 1
            elif child.type == ",":
                # A comma stays where a kept declarator comes before it and the one after it is kept.
                after_kept = count < len(declarators) and declarators[count].start_byte in keep
                if not (seen_kept and after_kept):
                    self.edits.append((self.index(child), self.index(child, end=True), " "))

    def declare(self, node: tree_sitter.Node, *, lexical: bool) -> str:
        name = self.text(node)
        if "\\" in name:
            raise _Unchanged  # an escape in a name: the prelude takes names as written
        self.names.append(name)
        (self.lexical.append if lexical else self.other.add)(name)
        return name

    def check_names(self) -> None:
        """A ``let``, ``const`` or ``class`` name declared again in the same cell (or named ``let``) is V8's error."""
        lexical = set(self.lexical)
        if len(lexical) != len(self.lexical) or not self.other.isdisjoint(lexical) or "let" in lexical:
            raise _Unchanged

    def apply(self) -> str:
        pieces: list[str] = []
        done = 0
        for start, end, text in sorted(self.edits, key=lambda edit: (edit[0], edit[1])):
            pieces += [self.code[done:start], text]
            done = end
        pieces.append(self.code[done:])
        return "".join(pieces)

    def moved(self, code: str, statement: Statement) -> Statement:
        """``statement`` of the code before the edits, at its place in ``code`` (edits at or before its start)."""
        shift = sum(len(text) - (end - start) for start, end, text in self.edits if end <= statement.start)
        if shift == 0:
            return statement
        start = statement.start + shift
        return _statement(statement.kind, code, start, start + statement.end - statement.start)


def _bound_names(pattern: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The identifiers a declarator's pattern binds (not its default values or computed keys), in source order.

    Followed with a stack, not recursion: patterns nest as deep as the code likes (``const [[[[a]]]] = x``).
    """
    names: list[tree_sitter.Node] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.append(node)
        elif node.type == "pair_pattern":
            stack.extend(value for value in (node.child_by_field_name("value"),) if value is not None)
        elif node.type in ("object_assignment_pattern", "assignment_pattern"):
            stack.extend(left for left in (node.child_by_field_name("left"),) if left is not None)
        elif node.type in ("object_pattern", "array_pattern", "rest_pattern"):
            stack.extend(reversed(node.named_children))
        elif node.type != "comment":
            raise _Unchanged  # a shape this rewrite does not know
    return names
