"""Text from code or from an upstream server, made safe to show: every character that could hide text, reorder it or
break a line is written as a visible escape (``\\u202e``) instead.

Used where a person reads such text: the consent question (what the user is asked to allow) and every log line that
quotes a name or a message from the code or an upstream (a newline there would forge a line of the log).

Escaped: the control characters (U+0000-001F, U+007F-009F), the line and paragraph separators (U+2028/2029), every
format character (category Cf: the bidirectional controls U+202A-202E and U+2066-2069, the zero-width characters
U+200B-200F, U+FEFF, the tag characters U+E0000-E007F ...), surrogates, private-use and unassigned code points,
every space but U+0020, the variation selectors (which can carry hidden data after any character) and the Hangul
fillers and U+034F, which are letters or marks that show nothing. A character above U+FFFF is written as its
surrogate pair (``\\udb40\\udc01``), so that an escaped JSON text stays valid JSON.
"""

from __future__ import annotations

import unicodedata

__all__ = ["is_hidden", "visible"]

_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
_INVISIBLE = frozenset({0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0})
"""Characters of visible categories that render as nothing: the combining grapheme joiner and the Hangul fillers."""


def is_hidden(char: str) -> bool:
    """Whether one character must be escaped to be seen for what it is."""
    code = ord(char)
    if 0x20 <= code < 0x7F:
        return False
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or code in _INVISIBLE:
        return True
    return unicodedata.category(char) in _HIDDEN_CATEGORIES


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with every hidden character (see the module) escaped; the characters of ``keep`` are left as they are.

    The escapes are JSON's, so inside a JSON text rendered with its own escaping of ``\\`` and ``"`` the result stays
    valid, unambiguous JSON: a backslash in the data is ``\\\\``, never the start of one of these escapes.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape(char) if char not in keep and is_hidden(char) else char for char in text)
