"""What the worker learns from a model's code before V8 sees it: TypeScript to blank out, and the last statement.

Models often write TypeScript where JavaScript was asked for, and V8's errors for type syntax ("Unexpected
token ':'") never say that types are the problem. So the code is parsed with tree-sitter's TypeScript
grammar and every piece of TypeScript-only syntax is replaced by spaces, keeping line breaks, so that each
line and column of what remains (counted in UTF-16 code units, as JavaScript counts them) is exactly where it
was: V8's syntax errors and stack traces then point into the model's own text. Constructs that have no
blank-only translation (enums, namespaces, constructor parameter properties, decorators) are reported as
:class:`Unsupported`, with a message saying how to write them in plain JavaScript.

The same parse gives the program's last top-level statement, which a REPL-like result needs: whether it is an
expression (its value is the result), a block that reads as an object literal (``{ mean, median }``, which a
REPL shows as that object), or anything else.

The blanked code means what TypeScript's compiler makes of the code, automatic semicolons included. The tree
that says what to blank reads statement boundaries as the compiler does (:mod:`boundaries`: ``y = x as any``
then a line ``[0]`` is two statements). Where blanking could join the code around a blank into one
statement, the blank's first column becomes a `;`: a whole statement or class member (an interface between
``let a = 1`` and a line starting with ``(``), and a type after which the compiler ends the statement though
JavaScript would go on (``x as T`` then a line starting with ``(``, ``[``, `` ` `` or ``.``).

Plain JavaScript comes back as the very same string: when the TypeScript grammar finds something to blank,
the code is parsed again with tree-sitter's JavaScript grammar, and code that reads as JavaScript is left
as it is (``f < a > (b)`` stays a pair of comparisons, ``class A { abstract = 1 }`` a class with a field).
Text that both languages read, each its own way, is TypeScript only in code that is TypeScript by other
signs: there ``f < a > (b)`` is a call, and ``export`` (meaningless without modules) is blanked. Code that
does not parse (with one exception, a last statement that is an object literal, see :func:`analyze`) comes
back unchanged too, so that V8 reports the syntax error in its own words.
"""

from __future__ import annotations

import tree_sitter

from sandbox_server.sandbox.source import boundaries
from sandbox_server.sandbox.source.edits import (
    _TOKEN_PREFIX,
    _Edits,
    _merge,
    _read,
)
from sandbox_server.sandbox.source.model import (
    _JAVASCRIPT,
    _JSX_QUERY,
    _LANGUAGE,
    Analysis,
    Statement,
    Unsupported,
    _Offsets,
    _statement,
    _utf8,
)
from sandbox_server.sandbox.source.statements import (
    _last_statement,
    _simple_expression,
    _split_object_tail,
)

__all__ = ["Analysis", "Statement", "Unsupported", "analyze"]


def analyze(code: str) -> Analysis:
    """Blank out the TypeScript in ``code`` and find its last top-level statement.

    The code may use ``await`` and ``return`` at its top level (it may run as the body of an async
    function). A program whose last statement is an object literal written as a statement (``{ a: 1, b }``,
    ``{ ...x, y: 2 }``), which is a syntax error as JavaScript reads it, is still analysed: its
    ``last_statement`` is an ``"object_literal_block"`` and the caller is to evaluate that text as an
    expression (parenthesised, and separated from the code before it, which may lack a semicolon).

    Args:
        code: The model's code, JavaScript or TypeScript.

    Returns:
        The code to run, whether it was TypeScript, the first unsupported construct, and the last statement.
    """
    simple = _simple_expression(code)
    if simple is not None:
        return Analysis(code, False, None, simple)
    data = _utf8(code)
    parser = tree_sitter.Parser(_LANGUAGE)
    reading = _read(parser, data)
    root = reading.root
    tail: tuple[int, int] | None = None
    if root.has_error:
        split = _split_object_tail(parser, data, root)
        if split is None:
            return _with_parse_error(parser, code, data, reading)
        readings, tail = split
    else:
        readings = [(reading, 0)]
    edits = _Edits()
    for part, shift in readings:
        edits.collect(part, shift)
    offsets = _Offsets(code, data)
    if (edits.changes_code or edits.unsupported) and not any(_certainly_typescript(part) for part, _ in readings):
        javascript = _as_javascript(parser, code, data, offsets, tail)
        if javascript is not None:
            return javascript
    unsupported = edits.first_unsupported(code, offsets)
    stripped = edits.apply(code, offsets) if edits.changes_code else code
    if tail is not None:
        start, end = offsets.index(tail[0]), offsets.index(tail[1])
        last: Statement | None = _statement("object_literal_block", stripped, start, end)
    elif stripped is code:
        last = _last_statement(parser, code, root, offsets)
    elif len(stripped) == len(code) and not edits.reshapes_statements:
        # Same statements at the same indices: the first tree serves, skipping what was blanked whole.
        last = _last_statement(parser, stripped, root, offsets, _merge(edits.ranges + edits.exports))
    else:
        new_data = _utf8(stripped)
        new_root = parser.parse(new_data).root_node
        last = None if new_root.has_error else _last_statement(parser, stripped, new_root, _Offsets(stripped, new_data))
    return Analysis(stripped, stripped is not code, unsupported, last)


# Captures that JavaScript can give in a tree without errors: `a < b > (c)` reads as a call with type arguments,
# and `interface` or `namespace` then a name on the next line as a declaration (sloppy JavaScript has variables
# of those names). An annotation on an arrow's result is on the list in case the grammar reads a conditional's
# branches (`c ? (a) : b => d`) as one.
_MAYBE_JAVASCRIPT = frozenset({"type_arguments", "export_statement"})
_DECLARATIONS_BY_NAME = frozenset({"interface_declaration", "module", "internal_module"})
_ANNOTATIONS = frozenset({"type_annotation", "asserts_annotation", "type_predicate_annotation"})
_DECLARED = frozenset({"class", "function_expression", "generator_function"})


def _certainly_typescript(reading: boundaries.Reading) -> bool:
    """Whether what the query found is TypeScript for sure, so that the code cannot be JavaScript.

    Only a tree without errors tells: where the code has a parse error, the captures may be anything.
    """
    if reading.parsed_with_error:
        return False
    captures = reading.captures
    # What an `interface` or `namespace` with its name on the next line holds may be JavaScript too.
    doubtful = [
        (node.start_byte, node.end_byte)
        for name in _DECLARATIONS_BY_NAME
        for node in captures.get(name, ())
        if not _name_on_keyword_line(node)
    ]
    for name, nodes in captures.items():
        if name in _MAYBE_JAVASCRIPT or name.startswith(_TOKEN_PREFIX):
            continue  # tokens (`?`, `type`) go with other syntax, and count with it
        for node in nodes:
            if any(start <= node.start_byte < end for start, end in doubtful) or not _typescript_only(name, node):
                continue
            return True
    return False


def _typescript_only(name: str, node: tree_sitter.Node) -> bool:
    if name in _ANNOTATIONS:
        return node.parent is None or node.parent.type != "arrow_function"
    if name in ("as_expression", "satisfies_expression"):
        # `class A {} as` then `T` on the next line is a class and two names to JavaScript.
        operand = node.child(0)
        return operand is None or operand.type not in _DECLARED
    return True


def _name_on_keyword_line(declaration: tree_sitter.Node) -> bool:
    name = declaration.child_by_field_name("name")
    return name is not None and name.start_point.row == declaration.start_point.row


def _javascript_tree(data: bytes) -> tree_sitter.Node | None:
    """The tree of ``data`` as JavaScript, when it reads as JavaScript (without JSX, which V8 does not take)."""
    root = tree_sitter.Parser(_JAVASCRIPT).parse(data).root_node
    if root.has_error:
        return None
    if b"<" in data and tree_sitter.QueryCursor(_JSX_QUERY).captures(root):
        return None
    return root


def _as_javascript(
    parser: tree_sitter.Parser, code: str, data: bytes, offsets: _Offsets, tail: tuple[int, int] | None
) -> Analysis | None:
    """The analysis of code that reads as JavaScript though the TypeScript grammar found types in it, else None.

    ``a < b > (c)`` is a call in TypeScript and two comparisons in JavaScript; ``class A { abstract = 1 }`` has
    a field that the TypeScript grammar cannot read. Code that is JavaScript comes back as it is. ``tail`` is
    the byte range of a last statement that is an object literal (see :func:`_split_object_tail`).
    """
    if tail is None:
        root = _javascript_tree(data)
        if root is None:
            return None
        return Analysis(code, False, None, _last_statement(parser, code, root, offsets))
    start, end = tail
    if _javascript_tree(data[:start]) is None or _javascript_tree(b"(" + data[start:end] + b")") is None:
        return None
    last = _statement("object_literal_block", code, offsets.index(start), offsets.index(end))
    return Analysis(code, False, None, last)


def _with_parse_error(parser: tree_sitter.Parser, code: str, data: bytes, reading: boundaries.Reading) -> Analysis:
    """Code that does not parse: TypeScript outside the broken part is blanked all the same.

    V8 then reports the real mistake at its own line, rather than the first type annotation it meets (a
    missing parenthesis on line 3 of TypeScript would otherwise be "Unexpected token ':'" on line 1). Nothing
    near the error is touched, and no last statement is given. Code that reads as JavaScript comes back as it is.
    """
    edits = _Edits()
    edits.collect(reading, 0, sound_only=True)
    if not edits.changes_code:
        return Analysis(code, False, None, None)
    offsets = _Offsets(code, data)
    javascript = _as_javascript(parser, code, data, offsets, None)
    if javascript is not None:
        return javascript
    stripped = edits.apply(code, offsets)
    return Analysis(stripped, stripped is not code, edits.first_unsupported(code, offsets), None)
