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

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

from sandbox_server.sandbox import boundaries

__all__ = ["Analysis", "Statement", "Unsupported", "analyze"]

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

_TOKEN_PREFIX = "token."

# Node kinds that are TypeScript wherever they appear: each is blanked whole.
# (`?:`, `-?:` and `+?:` annotations exist only inside types, which go whole, so they need no pattern.)
_TYPE_KINDS = (
    "type_annotation",
    "asserts_annotation",
    "type_predicate_annotation",
    "type_parameters",
    "type_arguments",
    "implements_clause",
    "accessibility_modifier",
    "override_modifier",
)
# Statements and class members that go whole, with a `;` in their first column, so that the code around
# them cannot join into one statement (`type A = B` followed by a line that starts with `(`).
_STATEMENT_KINDS = (
    "interface_declaration",
    "type_alias_declaration",
    "ambient_declaration",
    "function_signature",
    "method_signature",
    "abstract_method_signature",
    "index_signature",
)
_UNSUPPORTED_KINDS = {
    "enum_declaration": "enum",
    "internal_module": "namespace",
    "module": "namespace",
    "decorator": "decorator",
}
# Kinds and keywords whose meaning depends on where they are; handled one by one in `_Edits.collect`.
_CONTEXT_KINDS = ("as_expression", "satisfies_expression", "non_null_expression", "export_statement")
_CONTEXT_TOKENS = ("?", "!", "readonly", "declare", "abstract", "type")

# Patterns of single node kinds only: the query compiles in milliseconds, where patterns that look at
# children or fields take several milliseconds each.
_QUERY_SOURCE = "\n".join(
    [f"({kind}) @{kind}" for kind in (*_TYPE_KINDS, *_STATEMENT_KINDS, *_UNSUPPORTED_KINDS, *_CONTEXT_KINDS)]
    + [f'"{token}" @{_TOKEN_PREFIX}{index}' for index, token in enumerate(_CONTEXT_TOKENS)]
)
_QUERY = tree_sitter.Query(_LANGUAGE, _QUERY_SOURCE)

_ADVICE = {
    "enum": (
        "a TypeScript enum",
        "Write it as a frozen object instead, for example "
        "`const Color = Object.freeze({ Red: 0, Green: 1 })`, and use `Color.Red` as before.",
    ),
    "namespace": (
        "a TypeScript namespace",
        "Write it as an object instead, for example "
        "`const Geometry = { area(r) { return Math.PI * r * r; } }`, or as plain top-level declarations.",
    ),
    "parameter_property": (
        "a constructor parameter property",
        "Declare the field and assign it in the constructor instead, for example "
        "`class Point { x; constructor(x) { this.x = x; } }`.",
    ),
    "decorator": (
        "a decorator",
        "Call the decorating function yourself instead, for example `Service = register(Service);` after the "
        "class, or `obj.method = logged(obj.method);`.",
    ),
}

_PARAMETERS = ("required_parameter", "optional_parameter")
_Add = Callable[..., None]

# JavaScript line terminators: kept when blanking, counted when giving a line.
_LINE_BREAK = re.compile("\r\n|[\n\r\u2028\u2029]")
_BLANKABLE = re.compile("[^\n\r\u2028\u2029\U00010000-\U0010ffff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_CONTINUATION_BYTE = re.compile(rb"[\x80-\xbf]")

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


def _captures(root: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    return tree_sitter.QueryCursor(_QUERY).captures(root)


def _modifiers(captures: dict[str, list[tree_sitter.Node]]) -> Iterable[tree_sitter.Node]:
    """Keywords the tree reads as modifiers, which the compiler reads so only when a name follows on their line."""
    for kind in ("accessibility_modifier", "override_modifier"):
        yield from captures.get(kind, ())
    for index, token in enumerate(_CONTEXT_TOKENS):
        if token in ("readonly", "declare", "abstract", "type"):
            for node in captures.get(f"{_TOKEN_PREFIX}{index}", ()):
                parent = node.parent
                if token != "type" or (parent is not None and parent.type == "type_alias_declaration"):
                    yield node


def _read(parser: tree_sitter.Parser, data: bytes) -> boundaries.Reading:
    return boundaries.read(parser, data, _captures, _modifiers)


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


def _sound(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is free of parse errors and outside any."""
    if node.has_error:
        return False
    parent = node.parent
    while parent is not None:
        if parent.type == "ERROR" or parent.is_missing:
            return False
        parent = parent.parent
    return True


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


def _utf8(text: str) -> bytes:
    """The UTF-8 that tree-sitter reads; a lone surrogate (JSON allows one) passes as its three bytes."""
    return text.encode("utf-8", "surrogatepass")


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


class _Edits:
    """The blank ranges and unsupported constructs found in one or more syntax trees."""

    def __init__(self) -> None:
        # (start byte, end byte, whether a `;` goes in the first column)
        self.ranges: list[tuple[int, int, bool]] = []
        # Blanked only when the code is TypeScript by other signs: `export`, and calls such as `a<b>(c)`,
        # which JavaScript reads as comparisons.
        self.exports: list[tuple[int, int, bool]] = []
        self.ambiguous: list[tuple[int, int, bool]] = []
        self.unsupported: list[tuple[int, str]] = []
        self.reshaped = False

    @property
    def changes_code(self) -> bool:
        return bool(self.ranges)

    @property
    def reshapes_statements(self) -> bool:
        """Whether the blanked code has other statements than the tree shows.

        A blanked ``export default`` leaves a value that reads as a statement of its own. (Where a `;` is put in
        a blank, the tree already ends the statement there: see :mod:`boundaries`.)
        """
        return self.reshaped

    def collect(self, reading: boundaries.Reading, shift: int, *, sound_only: bool = False) -> None:
        """Add what the TypeScript query found in ``reading``, whose byte 0 is byte ``shift`` of the code.

        With ``sound_only``, nodes that hold or sit inside a parse error are left alone.
        """
        captures = reading.captures
        self.ranges.extend((start + shift, end + shift, False) for start, end in reading.extra_types)
        if sound_only:
            captures = {name: [node for node in nodes if _sound(node)] for name, nodes in captures.items()}
            captures = {name: nodes for name, nodes in captures.items() if nodes}
        if not captures:
            return
        ranges = self.ranges
        cut = reading.cut

        def add(node: tree_sitter.Node, semicolon: bool = False, target: list[tuple[int, int, bool]] = ranges) -> None:
            end = cut.get(node.end_byte, node.end_byte)
            target.append((node.start_byte + shift, end + shift, semicolon or end in reading.semicolon_after))

        for name, nodes in captures.items():
            if name in _UNSUPPORTED_KINDS:
                self.unsupported.extend((node.start_byte + shift, _UNSUPPORTED_KINDS[name]) for node in nodes)
            elif name in _STATEMENT_KINDS:
                for node in nodes:
                    add(node, semicolon=True)
            elif name in _TYPE_KINDS:
                for node in nodes:
                    if node.start_byte not in reading.not_type_arguments:
                        self._type_syntax(node, shift, add)
            elif name in ("as_expression", "satisfies_expression"):
                ranges.extend(_tail(node, shift, reading) for node in nodes)
            elif name == "non_null_expression":
                for node in nodes:
                    bang = node.child(node.child_count - 1)
                    if bang is not None and bang.type == "!":
                        add(bang)
            elif name == "export_statement":
                self.exports.extend(_export_keywords(nodes, shift))
                # `export default {...}` becomes a block statement: the tree no longer tells the statements.
                self.reshaped = self.reshaped or any(node.child_by_field_name("value") is not None for node in nodes)
            elif name.startswith(_TOKEN_PREFIX):
                token = _CONTEXT_TOKENS[int(name.removeprefix(_TOKEN_PREFIX))]
                for node in nodes:
                    self._token(token, node, shift, add)

    def _type_syntax(self, node: tree_sitter.Node, shift: int, add: _Add) -> None:
        parent = node.parent
        parent_type = parent.type if parent is not None else ""
        if node.type in ("accessibility_modifier", "override_modifier") and parent_type in _PARAMETERS:
            self.unsupported.append((node.start_byte + shift, "parameter_property"))
        if node.type == "type_annotation" and parent is not None and parent_type == "required_parameter":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "this":
                self.ranges.append(_this_parameter(parent, shift))
                return
        if _reads_as_comparison(node):
            add(node, target=self.ambiguous)
        else:
            add(node)

    def _token(self, token: str, node: tree_sitter.Node, shift: int, add: _Add) -> None:
        parent = node.parent
        if parent is None:
            return
        kind = parent.type
        if token in ("?", "!"):
            # Optional and definite markers, not the `?` of a conditional or the `!` of a negation.
            if kind in ("public_field_definition", "method_definition", "optional_parameter", "variable_declarator"):
                add(node)
        elif token == "readonly":
            if kind in _PARAMETERS:
                self.unsupported.append((parent.start_byte + shift, "parameter_property"))
            if kind in (*_PARAMETERS, "public_field_definition"):
                add(node)
        elif token in ("declare", "abstract"):
            if kind == "public_field_definition":
                add(parent, semicolon=True)
            elif kind == "abstract_class_declaration":
                add(node)
        elif token == "type":
            if kind in ("import_statement", "export_statement"):
                add(parent, semicolon=True)
            elif kind == "import_specifier":
                self.ranges.extend(_type_only_imports([parent], shift))

    def first_unsupported(self, code: str, offsets: _Offsets) -> Unsupported | None:
        """The earliest unsupported construct that is not inside blanked code (``declare enum`` is fine)."""
        # Only whole statements count here: a parameter property's `private` is blanked, yet unsupported.
        blanked = [(start, end) for start, end, statement in self.ranges if statement]
        for byte, construct in sorted(self.unsupported):
            if any(start <= byte < end for start, end in blanked):
                continue
            what, advice = _ADVICE[construct]
            line, column = _position(code, offsets.index(byte))
            return Unsupported(construct, line, column, _message(what, advice))
        return None

    def apply(self, code: str, offsets: _Offsets) -> str:
        """``code`` with every range blanked; `export` keywords go too, as the code is TypeScript."""
        pieces: list[str] = []
        done = 0
        for start_byte, end_byte, semicolon in _merge(self.ranges + self.exports + self.ambiguous):
            start, end = offsets.index(start_byte), offsets.index(end_byte)
            pieces.append(code[done:start])
            blank = _blank(code[start:end])
            if semicolon:
                blank = ";" + blank[1:]
            pieces.append(blank)
            done = end
        pieces.append(code[done:])
        return "".join(pieces)


def _message(what: str, advice: str) -> str:
    return f"This code uses {what}, which is TypeScript that cannot run here as JavaScript. {advice}"


def _blank(text: str) -> str:
    """Spaces in place of ``text``: line breaks kept, two spaces for a character outside the BMP."""
    if text.isascii() and "\n" not in text and "\r" not in text:
        return " " * len(text)
    return _ASTRAL.sub("  ", _BLANKABLE.sub(" ", text))


def _merge(ranges: Iterable[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """Overlapping ranges joined; a `;` stays only where a joined range begins.

    A range inside another loses its `;`: a method signature inside a type annotation
    (``let x: { m(): void }``) is no statement.
    """
    merged: list[tuple[int, int, bool]] = []
    for start, end, semicolon in sorted(ranges, key=lambda r: (r[0], -r[1])):
        if merged and start < merged[-1][1]:
            first_start, first_end, first_semicolon = merged[-1]
            merged[-1] = (first_start, max(first_end, end), first_semicolon)
        else:
            merged.append((start, end, semicolon))
    return merged


def _reads_as_comparison(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is the type arguments of a call that JavaScript reads as comparisons (``a < b > (c)``)."""
    if node.type != "type_arguments":
        return False
    parent = node.parent
    if parent is None or parent.type not in ("call_expression", "new_expression"):
        return False
    arguments = parent.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments" or arguments.named_child_count == 0:
        return False  # `new Stack<Item>()`: `> ()` is no comparison
    return all(argument.type == "type_identifier" for argument in node.named_children)


def _tail(expression: tree_sitter.Node, shift: int, reading: boundaries.Reading) -> tuple[int, int, bool]:
    """From `as`/`satisfies` to the end of the type, with a `;` where the compiler ends the statement there."""
    keyword = next(child for child in expression.children if child.type in ("as", "satisfies"))
    end = reading.cut.get(expression.end_byte, expression.end_byte)
    return keyword.start_byte + shift, end + shift, end in reading.semicolon_after


def _this_parameter(parameter: tree_sitter.Node, shift: int) -> tuple[int, int, bool]:
    """A `this` parameter and the comma after it."""
    end = parameter.end_byte
    following = parameter.next_sibling
    if following is not None and following.type == ",":
        end = following.end_byte
    return parameter.start_byte + shift, end + shift, False


def _export_keywords(statements: Iterable[tree_sitter.Node], shift: int) -> Iterable[tuple[int, int, bool]]:
    """What `export` means nothing without modules: the keywords before a declaration or a default value,
    and ``export { a, b }`` whole. A re-export (``export * from './x'``) is left for V8 to refuse."""
    for statement in statements:
        if statement.child_by_field_name("source") is not None:
            continue
        if statement.child_by_field_name("declaration") is None and statement.child_by_field_name("value") is None:
            if any(child.type == "export_clause" for child in statement.named_children):
                yield statement.start_byte + shift, statement.end_byte + shift, True
            continue
        for child in statement.children:
            if child.type in ("export", "default"):
                yield child.start_byte + shift, child.end_byte + shift, False


def _type_only_imports(specifiers: Iterable[tree_sitter.Node], shift: int) -> Iterable[tuple[int, int, bool]]:
    """Imports whose specifiers are all `type` ones go; any other import is left for V8 to refuse."""
    statements: dict[int, tree_sitter.Node] = {}
    for specifier in specifiers:
        statement = specifier.parent
        while statement is not None and statement.type != "import_statement":
            statement = statement.parent
        if statement is not None:
            statements[statement.id] = statement
    for statement in statements.values():
        clause = next((child for child in statement.named_children if child.type == "import_clause"), None)
        if clause is None or len(clause.named_children) != 1 or clause.named_children[0].type != "named_imports":
            continue
        names = clause.named_children[0].named_children
        if all(any(token.type == "type" for token in name.children) for name in names if name.type != "comment"):
            yield statement.start_byte + shift, statement.end_byte + shift, True


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
