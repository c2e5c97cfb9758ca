"""Object types that a server's compact signatures repeat, named once: ``type Entity = {name: string, …}`` above the
signatures, and ``Entity`` wherever the type appeared, so that a catalogue like a knowledge-graph server's (the same
entity and relation shapes in nine tools) costs its model a fraction of the tokens.

A type is named after the property that holds it (``entities: {…}[]`` gives ``Entity``, ``record: {…}`` gives
``RecordType``, as TypeScript has a ``Record`` of its own); only types of
:data:`MIN_CHARS` or more that appear at least twice are named, and a name never shadows a word of the text.
"""

from __future__ import annotations

import re

from sandbox_server.upstream.typescript import TYPE_WORDS, string_end

__all__ = ["MIN_CHARS", "name_repeated"]

MIN_CHARS = 30
"""Shorter object types (``{content: string}``) cost about as much named as written out."""
_KEY = re.compile(r"([A-Za-z_$][A-Za-z0-9_$]*)\??: $")
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
        base = name = base + "Type" if base in TYPE_WORDS else base  # "Record" is TypeScript's own
        suffix = 2
        while name in taken:
            name, suffix = f"{base}{suffix}", suffix + 1
        taken.add(name)
        lines = [line.replace(text, name) for line in lines]
        definitions = [(other, body.replace(text, name)) for other, body in definitions]
        definitions.append((name, text))
    return [f"type {name} = {body}" for name, body in definitions], lines
