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
(:class:`_TypeEnd`); where the compiler then ends the statement at a line break and the tree does not, it
parses again a copy of the code with a `;` at that line break. The copy has the same length as the code, so the
tree's byte offsets are the code's; only the text tree-sitter sees differs. The blanked code gets a `;` in the
first column of each such type, so that JavaScript ends the statement there too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import tree_sitter

__all__ = ["Reading", "read"]

# Bytes of the UTF-8 text. A line break is any of JavaScript's line terminators.
_LINE_BREAK = re.compile(rb"\r\n?|\n|\xe2\x80[\xa8\xa9]")
_SPACE = re.compile(
    rb"(?:[ \t\v\f]|\xc2\xa0|\xef\xbb\xbf|\xe1\x9a\x80|\xe2\x80[\x80-\x8a\xaf]|\xe2\x81\x9f|\xe3\x80\x80)+"
)
_LINE_END = re.compile(rb"\r|\n|\xe2\x80[\xa8\xa9]")
_WORD = re.compile(
    rb"(?:[\w$]|\\u(?:\{[0-9a-fA-F]+\}|[0-9a-fA-F]{4})"
    rb"|(?!\xe2\x80[\x80-\x8a\xa8\xa9\xaf]|\xc2\xa0|\xef\xbb\xbf|\xe3\x80\x80|\xe2\x81\x9f|\xe1\x9a\x80)[\x80-\xff])+"
)
_NUMBER = re.compile(rb"(?:\.\d[\w]*|\d[\w]*(?:\.[\w]*)?)(?:(?<=[eE])[+-]\w+)?")
_STRING = re.compile(rb"'(?:[^'\\\r\n]|\\[\s\S])*'|\"(?:[^\"\\\r\n]|\\[\s\S])*\"")
# Punctuators that matter here, longest first; `>` is always one character, as in a type `A<B<C>>`.
_PUNCTUATORS = (b"...", b"?.", b"=>", b"&&", b"||", b"??", b"==", b"!=", b"<=", b"<<", b"++", b"--", b"**")
_OPENERS = {b"(": b")", b"[": b"]", b"{": b"}", b"<": b">"}
_CLOSERS = frozenset(_OPENERS.values())
# Type operators that come before a type: `keyof T`, `unique symbol`, `readonly T[]`.
_TYPE_OPERATORS = frozenset({b"keyof", b"unique", b"readonly"})
_BINARY_WORDS = frozenset({b"in", b"instanceof"})


@dataclass(frozen=True, slots=True)
class _Token:
    start: int
    end: int
    text: bytes
    after_line_break: bool  # a line break (or a comment holding one) comes between it and what is before it

    @property
    def is_word(self) -> bool:
        return bool(self.text) and (self.text[0] >= 0x80 or self.text[:1].isalpha() or self.text[:1] in b"_$\\")


class _Scanner:
    """Tokens of the code as the compiler's scanner gives them in a type, from any byte offset."""

    def __init__(self, data: bytes | bytearray) -> None:
        self.data = data

    def gap_end(self, position: int) -> tuple[int, bool]:
        """The end of the white space and comments at ``position``, and whether they hold a line break."""
        data = self.data
        line_break = False
        while position < len(data):
            if match := _SPACE.match(data, position):
                position = match.end()
            elif match := _LINE_BREAK.match(data, position):
                position, line_break = match.end(), True
            elif data.startswith(b"//", position):
                line_end = _LINE_END.search(data, position)
                position = len(data) if line_end is None else line_end.start()
            elif data.startswith(b"/*", position):
                close = data.find(b"*/", position + 2)
                if close == -1:
                    return len(data), line_break
                line_break = line_break or _LINE_BREAK.search(data, position, close) is not None
                position = close + 2
            else:
                break
        return position, line_break

    def token(self, position: int) -> _Token:
        """The token after ``position`` (an empty one at the end of the code)."""
        start, line_break = self.gap_end(position)
        data = self.data
        end = self._token_end(start)
        return _Token(start, end, bytes(data[start:end]), line_break)

    def _token_end(self, start: int) -> int:
        data = self.data
        if start >= len(data):
            return start
        first = data[start : start + 1]
        if first.isdigit() or (first == b"." and data[start + 1 : start + 2].isdigit()):
            match = _NUMBER.match(data, start)
            return match.end() if match else start + 1
        if first in b"'\"":
            match = _STRING.match(data, start)
            return match.end() if match else len(data)
        if first == b"`":
            return self._template_end(start + 1)
        if match := _WORD.match(data, start):
            return match.end()
        for punctuator in _PUNCTUATORS:
            if data.startswith(punctuator, start):
                if punctuator == b"?." and data[start + 2 : start + 3].isdigit():
                    break  # `a ?.5 : b` is a conditional
                return start + len(punctuator)
        return start + 1

    def _template_end(self, position: int) -> int:
        """The end of a template literal whose text starts at ``position``."""
        data = self.data
        while position < len(data):
            char = data[position : position + 1]
            if char == b"\\":
                position += 2
            elif char == b"`":
                return position + 1
            elif data.startswith(b"${", position):
                position = self._substitution_end(position + 2)
            else:
                position += 1
        return len(data)

    def _substitution_end(self, position: int) -> int:
        depth = 1
        while position < len(self.data):
            token = self.token(position)
            if not token.text:
                break
            position = token.end
            if token.text == b"{":
                depth += 1
            elif token.text == b"}":
                depth -= 1
                if depth == 0:
                    return position
        return len(self.data)

    def balanced_end(self, opener: _Token) -> int | None:
        """Just past the bracket that closes ``opener``; None when brackets do not match."""
        expected = [_OPENERS[opener.text]]
        position = opener.end
        while expected:
            token = self.token(position)
            if not token.text:
                return None
            position = token.end
            if token.text in _OPENERS:
                expected.append(_OPENERS[token.text])
            elif token.text in _CLOSERS and token.text != expected.pop():
                return None
        return position


class _TypeEnd:
    """Where the compiler's type grammar ends a type: a skipper over tokens, not a parser.

    Brackets are skipped whole (their inside cannot end a statement); what happens between them follows the
    compiler: no ``[``, ``<``, ``extends`` or ``is`` after a line break, while ``|``, ``&`` and a qualified
    name's ``.`` may come after one. Each method gives the end of what it read, or None for text that is no type.
    """

    def __init__(self, scanner: _Scanner) -> None:
        self.scanner = scanner

    def type_or_predicate(self, position: int) -> int | None:
        """A return type, which may be ``x is T``, ``asserts x`` or ``asserts x is T``."""
        token = self.scanner.token(position)
        if token.text == b"asserts":
            subject = self.scanner.token(token.end)
            if subject.is_word and not subject.after_line_break:
                after = self.scanner.token(subject.end)
                if after.text == b"is" and not after.after_line_break:
                    return self.type(after.end)
                return subject.end
        if token.is_word:
            after = self.scanner.token(token.end)
            if after.text == b"is" and not after.after_line_break:
                return self.type(after.end)
        return self.type(position)

    def type(self, position: int, conditional: bool = True) -> int | None:
        scanner = self.scanner
        token = scanner.token(position)
        if token.text == b"abstract":
            following = scanner.token(token.end)
            if following.text == b"new" and not following.after_line_break:
                token = following
        if token.text == b"new":
            return self._function_type(token.end)
        if token.text == b"<":
            return self._function_type(token.start)
        if token.text == b"(":
            inner_end = scanner.balanced_end(token)
            if inner_end is None:
                return None
            arrow = scanner.token(inner_end)
            if arrow.text == b"=>":
                return self.type_or_predicate(arrow.end)
        end = self._union(position)
        if end is None or not conditional:
            return end
        keyword = scanner.token(end)
        if keyword.text != b"extends" or keyword.after_line_break:
            return end
        end = self.type(keyword.end, conditional=False)
        for separator in (b"?", b":"):
            if end is None:
                return None
            token = scanner.token(end)
            if token.text != separator:
                return None
            end = self.type(token.end)
        return end

    def _function_type(self, position: int) -> int | None:
        """``<T>(a: T) => T`` or the part of ``new (a) => T`` after ``new``."""
        scanner = self.scanner
        token = scanner.token(position)
        if token.text == b"<":
            end = scanner.balanced_end(token)
            if end is None:
                return None
            token = scanner.token(end)
        if token.text != b"(":
            return None
        end = scanner.balanced_end(token)
        if end is None:
            return None
        arrow = scanner.token(end)
        return self.type_or_predicate(arrow.end) if arrow.text == b"=>" else None

    def _union(self, position: int) -> int | None:
        return self._list(position, b"|", lambda start: self._list(start, b"&", self._operator))

    def _list(self, position: int, separator: bytes, element: Callable[[int], int | None]) -> int | None:
        """``element`` joined by ``separator``, which may also lead; line breaks are no matter."""
        token = self.scanner.token(position)
        if token.text == separator:
            position = token.end
        end = element(position)
        while end is not None:
            token = self.scanner.token(end)
            if token.text != separator:
                return end
            end = element(token.end)
        return None

    def _operator(self, position: int) -> int | None:
        token = self.scanner.token(position)
        if token.text in _TYPE_OPERATORS:
            return self._operator(token.end)
        if token.text == b"infer":
            name = self.scanner.token(token.end)
            return name.end if name.is_word else None
        return self._postfix(position)

    def _postfix(self, position: int) -> int | None:
        end = self._primary(position)
        while end is not None:
            token = self.scanner.token(end)
            if token.text != b"[" or token.after_line_break:
                return end
            end = self.scanner.balanced_end(token)
        return None

    def _primary(self, position: int) -> int | None:
        scanner = self.scanner
        token = scanner.token(position)
        text = token.text
        if text in (b"{", b"[", b"("):
            return scanner.balanced_end(token)
        if text == b"typeof":
            subject = scanner.token(token.end)
            if subject.text == b"import":
                return self._import(subject)
            return self._arguments(self._entity(subject))
        if text == b"import":
            return self._import(token)
        if text[:1] in b"`'\"" and text:
            return token.end
        if text == b"-":
            token = scanner.token(token.end)
            text = token.text
        if text[:1].isdigit() or text[:1] == b".":
            return token.end if text[:1] != b"." or text[1:2].isdigit() else None
        if token.is_word:
            return self._arguments(self._entity(token))
        return None

    def _entity(self, first: _Token) -> int | None:
        """``A`` or ``A.B.C``, which may go on across line breaks."""
        if not first.is_word:
            return None
        end = first.end
        while True:
            dot = self.scanner.token(end)
            if dot.text != b".":
                return end
            name = self.scanner.token(dot.end)
            if not name.is_word:
                return end
            end = name.end

    def _arguments(self, end: int | None) -> int | None:
        """Type arguments after a name, which must start on its line."""
        if end is None:
            return None
        token = self.scanner.token(end)
        if token.text == b"<" and not token.after_line_break:
            return self.scanner.balanced_end(token)
        return end

    def _import(self, keyword: _Token) -> int | None:
        """``import("m")``, optionally ``.Name`` and type arguments."""
        scanner = self.scanner
        paren = scanner.token(keyword.end)
        if paren.text != b"(":
            return None
        end = scanner.balanced_end(paren)
        if end is None:
            return None
        dot = scanner.token(end)
        if dot.text == b".":
            end = self._entity(scanner.token(dot.end))
        return self._arguments(end)


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


def _continues_expression(token: _Token) -> bool:
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
    return _LINE_BREAK.search(copy, start, end) is None and _TOKEN_ON_THE_LINE.match(copy, end) is not None


def _regions(captures: dict[str, list[tree_sitter.Node]], scanner: _Scanner, copy: bytearray) -> Iterable[_Region]:
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
            if _LINE_BREAK.search(copy, operand.end_byte, keyword.start_byte) is not None:
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
        scanner = _Scanner(trial)
        _place_semicolon(trial, scanner, gap_start)
        tree = parser.parse(bytes(trial)).root_node
        # The parse must get past the line after the `;`: `type T = number` then `.k` is no statement of its own.
        line_end = _LINE_BREAK.search(trial, scanner.token(gap_start + 1).start)
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
            if previous_end is not None and _LINE_BREAK.search(data, previous_end, node.start_byte) is not None:
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
    scanner = _Scanner(copy)
    types = _TypeEnd(scanner)
    reading.cut.clear()
    for region in list(_regions(reading.captures, scanner, copy)):
        end = types.type_or_predicate(region.start) if region.predicate else types.type(region.start)
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


def _member_goes_on(annotation: tree_sitter.Node, following: _Token, copy: bytearray) -> bool:
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
    scanner = _Scanner(copy)
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


def _place_semicolon(copy: bytearray, scanner: _Scanner, position: int) -> None:
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
        line_break = _LINE_BREAK.match(copy, index)
        if line_break is not None:
            index = line_break.end()
        else:
            copy[index] = 0x20
            index += 1
