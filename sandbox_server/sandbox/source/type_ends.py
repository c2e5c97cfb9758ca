"""Where TypeScript's compiler ends a type: tokens as its scanner gives them, and a skipper over its type grammar.

The compiler's type grammar is line-sensitive in a few places, and those places decide statement boundaries
after types (see :mod:`boundaries`): ``T[]``, ``T[K]`` and ``T<U>`` must start their brackets on ``T``'s line,
as must ``extends`` in a conditional type and ``is`` in a type predicate, while ``|``, ``&`` and a qualified
name's ``.`` may come after a line break. :class:`TypeEnd` follows those rules over the UTF-8 bytes of the code
and skips bracketed parts whole, since nothing inside brackets can end a statement.

Nothing here recurses without bound: brackets and template literals are followed with explicit stacks, and the
few type forms that nest without brackets (conditional types, ``keyof keyof T``, function types returning
function types) stop at :data:`MAX_TYPE_DEPTH` levels with :class:`TypeTooDeep`, for the caller to fall back on
the tree's own reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["LINE_BREAK", "MAX_TYPE_DEPTH", "Scanner", "Token", "TypeEnd", "TypeTooDeep"]

MAX_TYPE_DEPTH = 100
"""Most levels of a type that nests without brackets that :class:`TypeEnd` follows (``A extends B ? ...``)."""

# Bytes of the UTF-8 text. A line break is any of JavaScript's line terminators.
LINE_BREAK = re.compile(rb"\r\n?|\n|\xe2\x80[\xa8\xa9]")
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


class TypeTooDeep(Exception):
    """A type nests more than :data:`MAX_TYPE_DEPTH` levels without brackets; where it ends is left to the tree."""


@dataclass(frozen=True, slots=True)
class Token:
    """A token: its byte range, its bytes, and whether a line break comes before it."""

    start: int
    end: int
    text: bytes
    after_line_break: bool  # a line break (or a comment holding one) comes between it and what is before it

    @property
    def is_word(self) -> bool:
        """Whether the token is a name or keyword."""
        return bool(self.text) and (self.text[0] >= 0x80 or self.text[:1].isalpha() or self.text[:1] in b"_$\\")


class Scanner:
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
            elif match := LINE_BREAK.match(data, position):
                position, line_break = match.end(), True
            elif data.startswith(b"//", position):
                line_end = _LINE_END.search(data, position)
                position = len(data) if line_end is None else line_end.start()
            elif data.startswith(b"/*", position):
                close = data.find(b"*/", position + 2)
                if close == -1:
                    return len(data), line_break
                line_break = line_break or LINE_BREAK.search(data, position, close) is not None
                position = close + 2
            else:
                break
        return position, line_break

    def token(self, position: int) -> Token:
        """The token after ``position`` (an empty one at the end of the code)."""
        start, line_break = self.gap_end(position)
        data = self.data
        end = self._token_end(start)
        return Token(start, end, bytes(data[start:end]), line_break)

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
        """The end of a template literal whose text starts at ``position``.

        Substitutions (``${...}``) may hold templates that hold substitutions, to any depth: ``open`` has, for
        each substitution being read, how many of its braces are open; the template text being read is the one
        after the last of them (or the outer template's, when there is none).
        """
        data = self.data
        open_braces: list[int] = []
        in_text = True
        while position < len(data):
            if in_text:
                char = data[position : position + 1]
                if char == b"\\":
                    position += 2
                elif char == b"`":
                    position += 1
                    if not open_braces:
                        return position
                    in_text = False  # back in the substitution that holds this template
                elif data.startswith(b"${", position):
                    open_braces.append(1)
                    position += 2
                    in_text = False
                else:
                    position += 1
                continue
            start, _ = self.gap_end(position)
            if start >= len(data):
                break
            if data[start : start + 1] == b"`":  # a template inside the substitution
                position, in_text = start + 1, True
                continue
            position = self._token_end(start)
            text = data[start:position]
            if text == b"{":
                open_braces[-1] += 1
            elif text == b"}":
                open_braces[-1] -= 1
                if open_braces[-1] == 0:
                    open_braces.pop()
                    in_text = True
        return len(data)

    def balanced_end(self, opener: Token) -> int | None:
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


class TypeEnd:
    """Where the compiler's type grammar ends a type: a skipper over tokens, not a parser.

    Brackets are skipped whole (their inside cannot end a statement); what happens between them follows the
    compiler: no ``[``, ``<``, ``extends`` or ``is`` after a line break, while ``|``, ``&`` and a qualified
    name's ``.`` may come after one. Each method gives the end of what it read, or None for text that is no type.
    """

    def __init__(self, scanner: Scanner) -> None:
        self.scanner = scanner
        self._depth = 0

    def _deeper(self) -> None:
        if self._depth >= MAX_TYPE_DEPTH:
            raise TypeTooDeep
        self._depth += 1

    def type_or_predicate(self, position: int) -> int | None:
        """A return type, which may be ``x is T``, ``asserts x`` or ``asserts x is T``."""
        self._deeper()
        try:
            return self._type_or_predicate(position)
        finally:
            self._depth -= 1

    def type(self, position: int, conditional: bool = True) -> int | None:
        """A type, which may be conditional unless ``conditional`` is false.

        Raises:
            TypeTooDeep: It nests more than :data:`MAX_TYPE_DEPTH` levels without brackets.
        """
        self._deeper()
        try:
            return self._type(position, conditional)
        finally:
            self._depth -= 1

    def _type_or_predicate(self, position: int) -> int | None:
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

    def _type(self, position: int, conditional: bool) -> int | None:
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
        while token.text in _TYPE_OPERATORS:  # `keyof readonly unique ...`: any number of them
            position = token.end
            token = self.scanner.token(position)
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

    def _entity(self, first: Token) -> int | None:
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

    def _import(self, keyword: Token) -> int | None:
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
