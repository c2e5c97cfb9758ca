"""Object types that a server's compact signatures repeat, named once: ``type Entity = {name: string, …}`` above the
signatures, and ``Entity`` wherever the type appeared, so that a catalogue like a knowledge-graph server's (the same
entity and relation shapes in nine tools) costs its model a fraction of the tokens.

A type is named after the property that holds it (``entities: {…}[]`` gives ``Entity``, ``record: {…}`` gives
``RecordType``, as TypeScript has a ``Record`` of its own); only types of
:data:`MIN_CHARS` or more that appear at least twice are named, and a name never shadows a word of the text.
A whole result that many signatures share, held by no property, is named ``Result`` (``DeleteResult`` when every
tool that gives it starts with ``delete``) where that costs fewer characters than writing it out each time
(server-filesystem's thirteen ``{content: string}``).
"""

from __future__ import annotations

import re

from sandbox_server.upstream.typescript import TYPE_WORDS, string_end

__all__ = ["MIN_CHARS", "RESULT", "name_repeated"]

MIN_CHARS = 30
"""Shorter object types (``{content: string}``) cost about as much named as written out."""
RESULT = "Result"
"""The name of a result type that signatures share, held by no property."""
_KEY = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)\??: $")
_FIRST_WORD = re.compile(r"[a-z]*|[A-Z][a-z]*")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _objects(line: str) -> list[tuple[str, str]]:
    """Every balanced ``{…}`` of ``line`` outside string literals, with the property name just before it (or "")."""
    found: list[tuple[str, str]] = []
    starts: list[int] = []
    position = 0
    while position < len(line):
        char = line[position]
        if char == '"':
            position = string_end(line, position)
        elif char == "{":
            starts.append(position)
        elif char == "}" and starts:
            start = starts.pop()
            key = _KEY.search(line[max(0, start - 70) : start])
            found.append((line[start : position + 1], key.group(1) if key else ""))
        position += 1
    return found


def _singular(key: str) -> str:
    word = key[:1].upper() + key[1:]
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def name_repeated(lines: list[str]) -> tuple[list[str], list[str]]:
    """The ``type Name = {…}`` definitions of the object types ``lines`` repeat, and ``lines`` using those names."""
    counts: dict[str, int] = {}
    keys: dict[str, str] = {}
    for line in lines:
        for text, key in _objects(line):
            counts[text] = counts.get(text, 0) + 1
            if key and text not in keys:
                keys[text] = key
    taken = set(TYPE_WORDS) | {word for line in lines for word in _WORD.findall(line)}
    definitions: list[tuple[str, str]] = []
    for text in sorted(counts, key=len, reverse=True):
        if len(text) < MIN_CHARS or counts[text] < 2 or text not in keys:
            continue
        if sum(line.count(text) for line in lines) + sum(body.count(text) for _, body in definitions) < 2:
            continue  # a longer type already named held it
        base = _singular(keys[text])
        name = _free(base + "Type" if base in TYPE_WORDS else base, taken)  # "Record" is TypeScript's own
        lines = [line.replace(text, name) for line in lines]
        definitions = [(other, body.replace(text, name)) for other, body in definitions]
        definitions.append((name, text))
    # Whole results last, as they read once the types they hold are named.
    results = {text for line in lines for text, _ in _objects(line) if line.endswith("): " + text)}
    for text in sorted(results, key=len, reverse=True):
        lines = _name_result(text, lines, taken, definitions)
    return [f"type {name} = {body}" for name, body in definitions], lines


def _free(base: str, taken: set[str]) -> str:
    """``base``, or ``base`` with the first number that makes it a name not yet taken; now taken."""
    name, suffix = base, 2
    while name in taken:
        name, suffix = f"{base}{suffix}", suffix + 1
    taken.add(name)
    return name


def _common_word(names: list[str]) -> str:
    """The first word all ``names`` begin with, capitalized (``Delete`` for ``delete_entities`` and
    ``delete_relations``), or ""."""
    words = {found.group().lower() if (found := _FIRST_WORD.match(name)) else "" for name in names}
    word = words.pop() if len(words) == 1 else ""
    return word[:1].upper() + word[1:]


def _name_result(text: str, lines: list[str], taken: set[str], definitions: list[tuple[str, str]]) -> list[str]:
    """``lines`` with ``text``, where it is a whole result (``f(…): {…}``), written as a name defined in
    ``definitions``, when the definition and the name cost fewer characters than ``text`` written each time."""
    tail = "): " + text
    users = [re.split(r"[^A-Za-z0-9]+", line, maxsplit=1)[0] for line in lines if line.endswith(tail)]
    base = _common_word(users) + RESULT
    if len(users) < 2 or len(users) * len(text) <= len(f"type {base} = {text}") + len(users) * len(base):
        return lines
    name = _free(base, taken)
    definitions.append((name, text))
    return [line[: -len(text)] + name if line.endswith(tail) else line for line in lines]
