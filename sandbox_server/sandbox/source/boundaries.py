"""Where TypeScript's own parser ends a type, and so where it ends a statement after one.

tree-sitter's TypeScript grammar decides automatic semicolons by looking at the character after a line break,
as JavaScript would: a line starting with ``[``, ``(``, `` ` ``, ``+`` or ``.`` continues the statement. After a
type, TypeScript's compiler reads such a line otherwise. ``T[]`` and ``T<U>`` are not continued across a line
break, so ``y = x as any`` followed by a line ``[0]`` is two statements; a type is never called, indexed or
tagged, so a line ``(z)`` after ``x as T`` is a statement of its own; while ``|``, ``&`` and a qualified name's
``.`` do continue a type on the next line. tree-sitter reads some of these as one statement and fails on others,
and blanking the type would let JavaScript join what TypeScript kept apart.

:func:`read` gives a tree that reads the code as the compiler does. It finds, for each type that ends something
(an annotation, the type after ``as`` or ``satisfies``, a type alias), where the compiler's type grammar ends it
(:mod:`type_ends`); where the compiler then ends the statement at a line break and the tree does not, it
parses again a copy of the code with a `;` at that line break. The copy has the same length as the code, so the
tree's byte offsets are the code's; only the text tree-sitter sees differs. The blanked code gets a `;` in the
first column of each such type where JavaScript would go on, so that it ends the statement there too.

The copy differs in two more ways. A keyword that the tree reads as a modifier where the compiler reads a name
(``class A { abstract = 1 }``; ``abstract`` alone on a line) gets `_` for its first letter, so that tree-sitter
reads a name too. And where the tree still has a parse error, a `;` goes at a line break before it if that lets
the parse go past the next line: JavaScript's own rule for semicolons, which tree-sitter's guess misses after a
type (``let a: number`` then a line ``/re/.test(s)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import tree_sitter

from sandbox_server.sandbox.source.type_ends import LINE_BREAK, Scanner, Token, TypeEnd, TypeTooDeep

__all__ = ["Reading", "read"]

_BINARY_WORDS = frozenset({b"in", b"instanceof"})

# What may follow a complete type, on the next line, without ending the statement, by what the type belongs to.
_CONTINUATIONS = {
    "declarator": frozenset({b"=", b",", b";", b")", b"}", b"in", b"of"}),
    "member": frozenset({b"=", b";", b",", b"}"}),
    "parameter": frozenset({b",", b")", b"=", b"]", b"}"}),
    "return": frozenset({b"{", b"=>", b";", b",", b"}"}),
    "alias": frozenset({b";", b"}"}),
}
_OWNERS = {
    "variable_declarator": "declarator",
    "public_field_definition": "member",
    "property_signature": "member",
    "index_signature": "member",
    "required_parameter": "parameter",
    "optional_parameter": "parameter",
}


def _continues_expression(token: Token) -> bool:
    """Whether ``token``, after an ``x as T`` that a line break ends, continues the expression (as an operator)."""
    text = token.text
    if text in _BINARY_WORDS:
        return True
    if text in (b"++", b"--", b"?.", b"=>", b"..."):
        return False
    first = text[:1]
    if first == b"=":
        return text == b"=="
    if first == b"!":
        return text == b"!="
    return bool(first) and first in b"*/%+-<>&|^,?:)]};"


@dataclass
class Reading:
    """A tree of the code as TypeScript's compiler reads it, and what blanking needs to keep that reading.

    Attributes:
        root: The tree, parsed from the code or from a copy of it with some line breaks made `;`.
        captures: The query's captures of ``root``.
        parsed_with_error: Whether the code as it is (before any copy) has a parse error.
        semicolon_after: Byte offsets at which a type ends whose statement or member the compiler ends there,
            where JavaScript could go on: the blank that covers the type gets a `;`.
        extra_types: Byte ranges that the compiler reads as part of a type and the tree as code (``.k`` on the
            line after ``x as any``): blanked as well.
        cut: For a type the tree reads as longer than the compiler does, its end in the tree and the
            compiler's end.
        not_type_arguments: Start bytes of what the tree reads as type arguments after ``x as T`` but the
            compiler reads as comparisons (``x as T`` then ``<U>(y)`` on the next line).
    """

    root: tree_sitter.Node
    captures: dict[str, list[tree_sitter.Node]]
    parsed_with_error: bool = False
    semicolon_after: set[int] = field(default_factory=set)
    extra_types: list[tuple[int, int]] = field(default_factory=list)
    cut: dict[int, int] = field(default_factory=dict)
    not_type_arguments: set[int] = field(default_factory=set)
    placed: set[int] = field(default_factory=set)  # where the copy has a `;` after a type


_MAX_PARSES = 6
# Captures of types that may end a statement.
_REGION_KINDS = (
    "type_annotation",
    "asserts_annotation",
    "type_predicate_annotation",
    "as_expression",
    "satisfies_expression",
    "type_alias_declaration",
)


def read(
    parser: tree_sitter.Parser,
    data: bytes,
    capture: Callable[[tree_sitter.Node], dict[str, list[tree_sitter.Node]]],
    modifiers: Callable[[dict[str, list[tree_sitter.Node]]], Iterable[tree_sitter.Node]],
) -> Reading:
    """Parse ``data`` as the compiler reads it.

    Args:
        parser: A parser for tree-sitter's TypeScript grammar.
        data: The code's UTF-8.
        capture: The captures of the TypeScript query in a tree.
        modifiers: The keywords of some captures that the tree reads as modifiers (``declare``, ``abstract``,
            ``readonly``, ``public``...) or as starting a declaration (``type``).
    """
    root = parser.parse(data).root_node
    reading = Reading(root, capture(root), root.has_error)
    captures = reading.captures
    typed = any(kind in captures for kind in _REGION_KINDS)
    if not (root.has_error or typed or any(True for _ in modifiers(captures))):
        return reading
    copy = bytearray(data)
    repairs = [_MAX_REPAIRS]
    for _ in range(_MAX_PARSES):
        changed = _rename_names(modifiers(reading.captures), copy)
        changed = _adjust(reading, copy) or changed
        if not changed and reading.root.has_error:
            changed = _repair(parser, reading.root, copy, repairs)
        if not changed:
            break
        reading.root = parser.parse(bytes(copy)).root_node
        reading.captures = capture(reading.root)
    return reading


@dataclass(frozen=True, slots=True)
class _Region:
    """A type that ends something: where it starts, the node that ends with it, and what it belongs to."""

    start: int
    node: tree_sitter.Node
    end: int
    owner: str
    predicate: bool


# After optional blanks, a token on the same line (a line separator, a comment or the end go the long way).
_TOKEN_ON_THE_LINE = re.compile(rb"[ \t]*(?:[^\s/\x80-\xff]|/[^/*])")


def _ends_on_its_line(copy: bytearray, start: int, end: int) -> bool:
    """Whether ``copy[start:end]`` has no line break and a token follows on its line: then the compiler and
    tree-sitter end the type alike, and the tokens need no closer look."""
    return LINE_BREAK.search(copy, start, end) is None and _TOKEN_ON_THE_LINE.match(copy, end) is not None


def _regions(captures: dict[str, list[tree_sitter.Node]], scanner: Scanner, copy: bytearray) -> Iterable[_Region]:
    for kind in ("type_annotation", "asserts_annotation", "type_predicate_annotation"):
        for node in captures.get(kind, ()):
            if _ends_on_its_line(copy, node.start_byte, node.end_byte):
                continue
            colon = node.child(0)
            parent = node.parent
            if colon is None or colon.type != ":" or parent is None:
                continue
            returned = parent.child_by_field_name("return_type") == node
            owner = "return" if returned else _OWNERS.get(parent.type, "")
            if owner:
                yield _Region(colon.end_byte, node, node.end_byte, owner, kind != "type_annotation")
    for kind in ("as_expression", "satisfies_expression"):
        for node in captures.get(kind, ()):
            keyword = next((child for child in node.children if child.type in ("as", "satisfies")), None)
            operand = None if keyword is None else keyword.prev_sibling
            if keyword is None or operand is None:
                continue
            if LINE_BREAK.search(copy, operand.end_byte, keyword.start_byte) is not None:
                # The compiler takes no `as` at the start of a line: the line before ends there.
                _place_semicolon(copy, scanner, operand.end_byte)
                continue
            if not _ends_on_its_line(copy, keyword.start_byte, node.end_byte):
                yield _Region(keyword.end_byte, node, node.end_byte, "tail", False)
    for node in captures.get("type_alias_declaration", ()):
        equals = next((child for child in node.children if child.type == "="), None)
        value = node.child_by_field_name("value")
        if equals is not None and value is not None and not _ends_on_its_line(copy, equals.end_byte, value.end_byte):
            yield _Region(equals.end_byte, node, value.end_byte, "alias", False)


def _first_error(node: tree_sitter.Node) -> int:
    """The byte offset of the first parse error under ``node``, which has one."""
    while not (node.is_error or node.is_missing):
        child = next((child for child in node.children if child.has_error or child.is_missing), None)
        if child is None:
            break
        node = child
    return node.start_byte


_MAX_REPAIRS = 8


def _repair(parser: tree_sitter.Parser, root: tree_sitter.Node, copy: bytearray, budget: list[int]) -> bool:
    """A `;` at a line break before the first parse error, where one makes the parse go further.

    This is JavaScript's own rule for inserting semicolons (before a token that cannot go on after a line
    break), which tree-sitter does not follow where a line starts with a character that could go on an
    expression: ``let a: number`` then ``/re/.test(s)`` on the next line. Each try is a parse; ``budget``
    holds how many are left for the whole reading. Gives whether ``copy`` changed.
    """
    error = _first_error(root)
    statement = next((child for child in root.children if child.end_byte > error), None)
    if statement is None or not _has_types(statement):
        return False  # JavaScript's syntax errors are V8's to report, without trial parses first
    for gap_start in _line_breaks_between_tokens(statement, error, copy):
        if budget[0] == 0:
            break
        budget[0] -= 1
        trial = bytearray(copy)
        scanner = Scanner(trial)
        _place_semicolon(trial, scanner, gap_start)
        tree = parser.parse(bytes(trial)).root_node
        # The parse must get past the line after the `;`: `type T = number` then `.k` is no statement of its own.
        line_end = LINE_BREAK.search(trial, scanner.token(gap_start + 1).start)
        if not tree.has_error or (line_end is not None and _first_error(tree) > line_end.start()):
            copy[:] = trial
            return True
    return False


# Nodes of TypeScript only whose kinds do not say "type".
_TYPED_KINDS = frozenset(
    {"as_expression", "satisfies_expression", "non_null_expression", "interface_declaration", "ambient_declaration"}
)


def _has_types(node: tree_sitter.Node) -> bool:
    """Whether the tree of ``node`` reads some of it as a type (an annotation, a type name, ``as T``)."""
    cursor = node.walk()
    while True:
        current = cursor.node
        if current is not None and current.is_named and ("type" in current.type or current.type in _TYPED_KINDS):
            return True
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.node == node:
                return False
            if cursor.goto_next_sibling():
                break
        else:
            return False


def _line_breaks_between_tokens(statement: tree_sitter.Node, error: int, data: bytearray) -> Iterable[int]:
    """Ends of tokens of ``statement`` followed by a line break, up to the first one at or after ``error``."""
    previous_end: int | None = None
    cursor = statement.walk()
    while True:
        node = cursor.node
        if node is not None and node.child_count == 0 and node.type != "comment" and node.end_byte > node.start_byte:
            if previous_end is not None and LINE_BREAK.search(data, previous_end, node.start_byte) is not None:
                yield previous_end
                if previous_end >= error:
                    return
            previous_end = node.end_byte
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.node == statement:
                return
            if cursor.goto_next_sibling():
                break
        else:
            return


# Nodes whose parts are statements or members: when the first node around a type that goes on past it is one of
# these, the tree already ended the statement or member with the type.
_CONTAINERS = frozenset(
    {"program", "statement_block", "class_body", "object_type", "interface_body", "switch_case", "switch_default"}
)


def _adjust(reading: Reading, copy: bytearray) -> bool:
    """Record where the compiler's reading differs from the tree's; edit ``copy`` where a new parse is needed.

    Gives whether ``copy`` changed.
    """
    before = bytes(copy)
    scanner = Scanner(copy)
    types = TypeEnd(scanner)
    reading.cut.clear()
    for region in list(_regions(reading.captures, scanner, copy)):
        try:
            end = types.type_or_predicate(region.start) if region.predicate else types.type(region.start)
        except TypeTooDeep:
            end = None  # the tree's reading of a type nested hundreds of levels deep stands
        if end is None:
            continue
        if end > region.end:
            # `x as N.T` then `.k` on the next line: one qualified name to the compiler.
            reading.extra_types.append((region.end, end))
            _blank(copy, region.end, end)
        elif end < region.end:
            reading.cut[region.end] = end
        following = scanner.token(end)
        if not following.after_line_break or not following.text or end in reading.placed:
            continue
        if region.owner == "tail":
            if _continues_expression(following):
                if following.text == b"<":
                    reading.not_type_arguments.add(following.start)
                continue
        elif following.text in _CONTINUATIONS[region.owner]:
            continue
        if region.owner == "tail" or (region.owner == "member" and _member_goes_on(region.node, following, copy)):
            # Keyed by both ends: an extended type's blank ends where the tree ends the type.
            reading.semicolon_after.update((end, region.end))
        if end == region.end and not reading.root.has_error and _tree_ends_there(region.node, end):
            continue
        reading.placed.add(end)
        _place_semicolon(copy, scanner, end)
    return bytes(copy) != before


# Field names after which JavaScript reads the next line as part of the same member (`get` then `[k]() {}`).
_MEMBER_PREFIXES = frozenset({b"get", b"set", b"static", b"accessor"})


def _member_goes_on(annotation: tree_sitter.Node, following: Token, copy: bytearray) -> bool:
    """Whether JavaScript would join ``following`` to the field whose type ``annotation`` is, once it is blank."""
    if following.text in (b"(", b"<"):
        return True  # `a` then `(x) {}` is a method named `a`
    member = annotation.parent
    name = None if member is None else member.child_by_field_name("name")
    return name is not None and bytes(copy[name.start_byte : name.end_byte]) in _MEMBER_PREFIXES


def _tree_ends_there(node: tree_sitter.Node, end: int) -> bool:
    """Whether the tree ends, at ``end``, the statement or member that ``node`` ends."""
    around: tree_sitter.Node | None = node
    while around is not None and around.end_byte <= end:
        around = around.parent
    return around is None or around.type in _CONTAINERS


# What may follow a modifier on its line: a member's or declaration's name or start (tsc's canFollowModifier).
_AFTER_MODIFIER = (b"[", b"{", b"*", b"...", b"#", b"'", b'"')


def _rename_names(keywords: Iterable[tree_sitter.Node], copy: bytearray) -> bool:
    """Make a name of each keyword that the compiler reads as a name though the tree reads it as a modifier.

    ``class A { abstract = 1 }`` has a field named ``abstract``, and so has ``abstract`` alone on a line: the
    compiler takes a modifier only with a name after it on its line. In the copy, the keyword's first letter
    becomes `_`, which tree-sitter reads as a name of the same length. Gives whether ``copy`` changed.
    """
    scanner = Scanner(copy)
    changed = False
    for keyword in keywords:
        start = keyword.start_byte
        if copy[start : start + 1] == b"_":
            continue
        following = scanner.token(keyword.end_byte)
        text = following.text
        name_follows = following.is_word or text.startswith(_AFTER_MODIFIER) or text[:1].isdigit()
        if following.after_line_break or not name_follows:
            copy[start : start + 1] = b"_"
            changed = True
    return changed


def _place_semicolon(copy: bytearray, scanner: Scanner, position: int) -> None:
    """A `;` in the white space or comment right after ``position``, which is followed by a line break."""
    end, _ = scanner.gap_end(position)
    if end <= position:
        return
    if copy.startswith(b"/", position):
        _blank(copy, position, end)
    elif copy[position] >= 0x80:
        _blank(copy, position, position + (3 if copy[position] >= 0xE0 else 2))
    copy[position : position + 1] = b";"


def _blank(copy: bytearray, start: int, end: int) -> None:
    """Spaces over ``copy[start:end]``, line breaks kept."""
    index = start
    while index < end:
        line_break = LINE_BREAK.match(copy, index)
        if line_break is not None:
            index = line_break.end()
        else:
            copy[index] = 0x20
            index += 1
