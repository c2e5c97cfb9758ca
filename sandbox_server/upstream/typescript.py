"""TypeScript source text: names, comments and the composition of types, for :mod:`declarations`.

Everything returned is safe to splice into a declaration file: names are identifiers, string literals are
escaped, and comment text cannot end its comment early.
"""

from __future__ import annotations

import re
import textwrap

from sandbox_server.upstream.catalog import is_identifier, quote

__all__ = [
    "array_of",
    "comment_text",
    "doc_comment",
    "function_name",
    "intersection",
    "object_body",
    "parenthesized",
    "property_key",
    "string_end",
    "type_name",
    "union",
]

# Names a type alias cannot take: TypeScript's own type names, and globals of the ES library that a
# declaration uses (Record, Promise) or that a definition named like them would shadow.
_TYPE_WORDS = (
    "any unknown never string number boolean symbol object bigint undefined void null this true false "
    "type keyof typeof infer is asserts readonly unique declare Record Promise Array Partial Required Readonly "
    "Pick Omit Exclude Extract Date Map Set Object String Number Boolean Error Function Symbol RegExp JSON Math "
    "Iterator"
)
TYPE_WORDS = frozenset(_TYPE_WORDS.split())
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_NEWLINES = re.compile("\r\n|[\r\u2028\u2029\x85]")


def intersection(parts: list[str]) -> str:
    known = list(dict.fromkeys(part for part in parts if part != "unknown"))
    if not known:
        return "unknown"
    return " & ".join(parenthesized(part, "|") for part in known) if len(known) > 1 else known[0]


def array_of(element: str) -> str:
    return f"{parenthesized(element, '|&')}[]"


def string_end(text: str, position: int) -> int:
    """The index of the quote that closes the string literal opening at ``position`` (``len(text)`` if none)."""
    position += 1
    while position < len(text) and text[position] != '"':
        position += 2 if text[position] == "\\" else 1
    return position


def parenthesized(text: str, operators: str) -> str:
    """``text`` in parentheses when an operator of ``operators`` is at its top level (outside brackets)."""
    depth, position = 0, 0
    while position < len(text):
        char = text[position]
        if char == '"':
            position = string_end(text, position)
        elif text.startswith("/*", position):
            position = text.find("*/", position + 2) + 1 or len(text)
        elif char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        elif depth == 0 and char in operators:
            return f"({text})"
        position += 1
    return text


def object_body(members: list[tuple[str, str]], indent: str) -> str:
    """An object type: on one line when short and undocumented, else a member a line with its doc comment.

    ``members`` are (doc, text) pairs; a text that is a comment (``/* … more */``) takes no semicolon.
    """
    inline = "{ " + "; ".join(text for _, text in members) + " }"
    flat = not any(doc or text.startswith("/*") for doc, text in members)
    if flat and len(inline) <= 72 and "\n" not in inline:
        return inline
    inner = indent + "  "
    lines = [f"{inner}{doc_comment(doc, inner)}{text}{'' if text.startswith('/*') else ';'}" for doc, text in members]
    return "{\n" + "\n".join(lines) + f"\n{indent}}}"


def comment_text(text: str, limit: int) -> str:
    """``text`` for a comment: line breaks normalised, no control characters or ``*/``, at most ``limit`` long."""
    cut = len(text) > limit
    text = _NEWLINES.sub("\n", text[: limit + 1]).replace("\t", " ")
    text = _CONTROL.sub("\ufffd", text).replace("*/", "*\\/")
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.strip().split("\n")))
    return text if len(text) <= limit and not cut else text[: limit - 1].rstrip() + "…"


def doc_comment(text: str, indent: str, limit: int = 800) -> str:
    """``text`` as a JSDoc comment at ``indent``, with a line break after it; empty for empty text."""
    text = comment_text(text, limit)
    if not text:
        return ""
    if "\n" not in text and len(text) + len(indent) <= 110:
        return f"/** {text} */\n{indent}"
    wrapped = [
        part
        for line in text.split("\n")
        for part in textwrap.wrap(line, 100, break_long_words=False, break_on_hyphens=False) or [""]
    ]
    lines = "\n".join(f"{indent} * {line}".rstrip() for line in wrapped)
    return f"/**\n{lines}\n{indent} */\n{indent}"


def property_key(name: str) -> str:
    # Any identifier, reserved word or not, is a property name; numbers would be renormalised, so are quoted.
    return name if name.replace("$", "_").isidentifier() else quote(name)


def type_name(text: str) -> str:
    """``text`` made into a name a type alias can take."""
    name = "".join(char if ("a" + char).replace("$", "_").isidentifier() else "_" for char in text[:64]) or "Type"
    name = name if name.replace("$", "_").isidentifier() else "_" + name
    return name + "_" if name in TYPE_WORDS or not is_identifier(name) else name


def function_name(text: str) -> str:
    name = type_name(text)
    return name[:-1] if name.endswith("_") and is_identifier(name[:-1]) else name


def union(members: list[str]) -> str:
    unique = list(dict.fromkeys(members))
    if "unknown" in unique:
        return "unknown"
    if len(unique) > 1:
        unique = [member for member in unique if member != "never"] or ["never"]
    return " | ".join(unique)
