"""What may be named in the data folder: the rules for a file name or pattern, the entries no name can reach, and
patterns as automata over path components. See :mod:`sandbox_server.data.folder` for how these keep every
request inside the folder."""

from __future__ import annotations

import fnmatch
import mimetypes
import os
import re

from sandbox_server.errors import PathRefused

__all__ = [
    "EVERYTHING",
    "MAX_COMPONENT_BYTES",
    "MAX_DEPTH",
    "MAX_NAME_CHARS",
    "Pattern",
    "components",
    "is_pattern",
    "leaves",
    "mime_type",
    "unlisted_reason",
]

MAX_NAME_CHARS = 1024
"""Longest accepted file name or pattern, in characters."""
MAX_COMPONENT_BYTES = 255
"""Longest accepted path component, in UTF-8 bytes (the common file-system limit)."""
MAX_DEPTH = 64
"""Most components a name or pattern may have (folders and the file); listings do not go deeper."""

_PATTERN_CHARS = frozenset("*?[")
_UNSPELLABLE = re.compile(r"[\x00-\x1f\x7f\\]")
_GLOBSTAR = "**"
_EXTRA_TYPES = {
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".json": "application/json",
    ".jsonl": "application/jsonl",
    ".ndjson": "application/x-ndjson",
    ".md": "text/markdown",
    ".txt": "text/plain",
    ".log": "text/plain",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".xml": "application/xml",
}


def mime_type(name: str) -> str:
    """The MIME type the extension of ``name`` suggests; ``application/octet-stream`` when unknown."""
    suffix = os.path.splitext(name)[1].lower()
    if suffix in _EXTRA_TYPES:
        return _EXTRA_TYPES[suffix]
    guessed, _ = mimetypes.guess_type("x" + suffix, strict=False)
    return guessed or "application/octet-stream"


def is_pattern(name: str) -> bool:
    """Whether ``name`` is a glob pattern (holds ``*``, ``?`` or ``[``) rather than a file name."""
    return any(char in _PATTERN_CHARS for char in name)


def leaves(name: str) -> PathRefused:
    # One message for every way out, so a refusal tells nothing about what exists outside the folder.
    return PathRefused(
        f"path {name!r} is refused: it is not inside the data folder (use a relative path such as 'reports/2025.csv')"
    )


def components(name: str) -> list[str]:
    """The checked components of ``name``; raises PathRefused naming the rule it breaks."""
    if not isinstance(name, str) or not name:
        raise PathRefused("a file name must be a non-empty string such as 'reports/2025.csv'")
    shown = name if len(name) <= 80 else name[:77] + "..."
    if len(name) > MAX_NAME_CHARS:
        raise PathRefused(f"path {shown!r} is {len(name)} characters long; at most {MAX_NAME_CHARS} are accepted")
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise PathRefused(f"path {shown!r} is refused: it contains a control character (NUL, newline, ...)")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        # repr() escapes the surrogate, so the message itself stays valid text.
        raise PathRefused(f"path {shown!r} is refused: it is not valid Unicode (it holds a lone surrogate)") from None
    if "\\" in name:
        raise PathRefused(f"path {shown!r} is refused: use '/' to separate folders, not '\\'")
    if name.startswith(("/", "~")) or (len(name) > 1 and name[1] == ":"):
        raise leaves(shown)
    parts = name.split("/")
    if parts[0] == "." and len(parts) > 1 and all(part not in ("", ".", "..") for part in parts[1:]):
        suggested = "/".join(parts[1:])
        raise PathRefused(
            f"path {shown!r} is refused: names are relative to the data folder already, so write {suggested!r} "
            "(without './')"
        )
    for part in parts:
        if part in ("", ".", ".."):
            if part == "..":
                raise leaves(shown)
            raise PathRefused(f"path {shown!r} is refused: it has an empty or '.' component")
        if part.startswith("."):
            raise PathRefused(
                f"path {shown!r} is refused: hidden files and folders (names starting with '.') are not accessible"
            )
        if len(part.encode("utf-8")) > MAX_COMPONENT_BYTES:
            raise PathRefused(f"path {shown!r} is refused: a component is longer than {MAX_COMPONENT_BYTES} bytes")
    if len(parts) > MAX_DEPTH:
        raise PathRefused(
            f"path {shown!r} is {len(parts)} levels deep; at most {MAX_DEPTH} levels (folders and the file) "
            "are accepted"
        )
    return parts


def unlisted_reason(part: str, top: bool) -> str | None:
    """Why a directory entry that is not hidden cannot be named, so is neither listed nor matched; None if it can."""
    try:
        size = len(part.encode("utf-8"))
    except UnicodeEncodeError:
        return "whose names are not UTF-8"
    if size > MAX_COMPONENT_BYTES or _UNSPELLABLE.search(part) is not None:
        return "whose names hold a control character or a backslash"
    if top and (part.startswith("~") or (len(part) > 1 and part[1] == ":")):
        return "whose names read as home or drive paths"
    return None


class Pattern:
    """A pattern as an automaton over path components.

    A state is the index of the next pattern component to match; the walk carries the set of states each folder
    leaves open. ``**`` matches any number of folders (so a run of them is one), and a trailing ``**`` at least one
    component, as the definition of patterns says; the other components are ``fnmatch`` patterns.
    """

    def __init__(self, parts: list[str]) -> None:
        collapsed: list[str] = []
        for part in parts:
            if not (part == _GLOBSTAR and collapsed and collapsed[-1] == _GLOBSTAR):
                collapsed.append(part)
        self.size = len(collapsed)
        self.globstar = [part == _GLOBSTAR for part in collapsed]
        self.matchers = [None if part == _GLOBSTAR else re.compile(fnmatch.translate(part)).match for part in collapsed]
        self.start = self._closed({0})

    def _closed(self, states: set[int]) -> frozenset[int]:
        # A "**" that is not last may match no folder at all; runs are collapsed, so one step settles it.
        extra = {index + 1 for index in states if index < self.size - 1 and self.globstar[index]}
        return frozenset(states | extra)

    def step(self, states: frozenset[int], component: str) -> frozenset[int]:
        """The states after matching one more path component."""
        following: set[int] = set()
        for index in states:
            if index == self.size:
                continue
            if self.globstar[index]:
                following.add(index)
                if index == self.size - 1:
                    following.add(self.size)
            else:
                matcher = self.matchers[index]
                if matcher is not None and matcher(component) is not None:
                    following.add(index + 1)
        return self._closed(following)

    def accepts(self, states: frozenset[int]) -> bool:
        """Whether a file whose name led to ``states`` matches."""
        return self.size in states

    def continues(self, states: frozenset[int]) -> bool:
        """Whether anything inside a folder whose name led to ``states`` could match."""
        return any(index < self.size for index in states)


EVERYTHING = frozenset({0})
