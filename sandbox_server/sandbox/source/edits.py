"""The blanks: every piece of TypeScript-only syntax a tree shows, the `;` that keeps statements apart, and the
constructs that cannot be blanked."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import tree_sitter

from sandbox_server.sandbox.source import boundaries
from sandbox_server.sandbox.source.model import (
    _ASTRAL,
    _BLANKABLE,
    _LANGUAGE,
    Unsupported,
    _Offsets,
    _position,
)

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


def _captures(root: tree_sitter.Node) -> dict[str, list[tree_sitter.Node]]:
    return tree_sitter.QueryCursor(_QUERY).captures(root)


def _read(parser: tree_sitter.Parser, data: bytes) -> boundaries.Reading:
    return boundaries.read(parser, data, _captures, _modifiers)


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
