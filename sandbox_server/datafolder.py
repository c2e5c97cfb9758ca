"""The data folder: the one place on the host the server may read, and the rules that keep it there.

A user may point the server at a folder (``--data-dir``) so that code can compute over files by name instead of
the model copying their contents into a call. Everything that touches that folder goes through this module:
resolving a name to a file, expanding a pattern, listing, and reading. Nothing here writes, creates or
deletes anything.

Containment rules, applied to every name before anything is opened:

- names are relative, ``/``-separated paths; absolute paths, ``..``, ``.``, empty components, backslashes,
  NUL and other control characters are refused, as are names longer than :data:`MAX_NAME_CHARS` or with a
  component longer than :data:`MAX_COMPONENT_BYTES`;
- a component that starts with a dot (a hidden file or folder) is refused, wherever it appears;
- every component must match a directory entry exactly, case included, so a case-insensitive file system
  cannot be used to reach an entry under another spelling;
- a symbolic link is followed only when its target, fully resolved, is inside the folder and has no hidden
  component; otherwise the name is refused with the same message whether or not the target exists;
- only regular files are read: directories, FIFOs, sockets and devices are refused, and files are opened
  with ``O_NONBLOCK | O_NOFOLLOW``, checked again with ``fstat``, and (on Linux) the opened descriptor's
  real path is checked to be inside the folder, which closes the gap between checking a path and opening it.
"""

from __future__ import annotations

import fnmatch
import mimetypes
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sandbox_server.errors import PathRefused

__all__ = [
    "MAX_COMPONENT_BYTES",
    "MAX_LISTED_FILES",
    "MAX_NAME_CHARS",
    "DataFile",
    "DataFolder",
    "is_pattern",
    "mime_type",
]

MAX_NAME_CHARS = 1024
"""Longest accepted file name or pattern, in characters."""
MAX_COMPONENT_BYTES = 255
"""Longest accepted path component, in UTF-8 bytes (the common file-system limit)."""
MAX_LISTED_FILES = 100_000
"""Most files a listing or a pattern walks; a larger folder is listed in part."""

_PATTERN_CHARS = frozenset("*?[")
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


@dataclass(frozen=True, slots=True)
class DataFile:
    """One regular file of the data folder.

    Attributes:
        name: Its path relative to the folder, ``/``-separated, as the caller named it (or as listed).
        real: Its resolved absolute path on the host; never shown to a client.
        size: Its size in bytes when it was checked.
    """

    name: str
    real: str
    size: int

    @property
    def mime_type(self) -> str:
        return mime_type(self.name)


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


def _leaves(name: str) -> PathRefused:
    # One message for every way out, so a refusal tells nothing about what exists outside the folder.
    return PathRefused(
        f"path {name!r} is refused: it is not inside the data folder (use a relative path such as 'reports/2025.csv')"
    )


def _components(name: str) -> list[str]:
    """The checked components of ``name``; raises PathRefused naming the rule it breaks."""
    if not isinstance(name, str) or not name:
        raise PathRefused("a file name must be a non-empty string such as 'reports/2025.csv'")
    shown = name if len(name) <= 80 else name[:77] + "..."
    if len(name) > MAX_NAME_CHARS:
        raise PathRefused(f"path {shown!r} is {len(name)} characters long; at most {MAX_NAME_CHARS} are accepted")
    if any(ord(char) < 32 or ord(char) == 127 for char in name):
        raise PathRefused(f"path {shown!r} is refused: it contains a control character (NUL, newline, ...)")
    if "\\" in name:
        raise PathRefused(f"path {shown!r} is refused: use '/' to separate folders, not '\\'")
    if name.startswith(("/", "~")) or (len(name) > 1 and name[1] == ":"):
        raise _leaves(shown)
    parts = name.split("/")
    for part in parts:
        if part in ("", ".", ".."):
            if part == "..":
                raise _leaves(shown)
            raise PathRefused(f"path {shown!r} is refused: it has an empty or '.' component")
        if part.startswith("."):
            raise PathRefused(
                f"path {shown!r} is refused: hidden files and folders (names starting with '.') are not accessible"
            )
        if len(part.encode("utf-8", "surrogatepass")) > MAX_COMPONENT_BYTES:
            raise PathRefused(f"path {shown!r} is refused: a component is longer than {MAX_COMPONENT_BYTES} bytes")
    return parts


class DataFolder:
    """A folder the server may read from, and nothing else.

    Args:
        path: The folder. It must exist and be a directory; it is resolved once, here.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        real = os.path.realpath(os.fspath(path))
        if not os.path.isdir(real):
            raise ValueError(f"data folder {os.fspath(path)!r} does not exist or is not a directory")
        self.root = real

    def __repr__(self) -> str:
        return f"DataFolder({self.root!r})"

    # -- resolving -----------------------------------------------------------------------------------------------

    def _inside(self, real: str) -> str | None:
        """``real`` relative to the folder when it is inside it and has no hidden component, else None."""
        if real == self.root:
            return ""
        prefix = self.root.rstrip(os.sep) + os.sep
        if not real.startswith(prefix):
            return None
        relative = real[len(prefix) :]
        if any(part.startswith(".") for part in relative.split(os.sep)):
            return None
        return relative

    def _follow(self, name: str, parts: list[str]) -> str:
        """The real path ``parts`` lead to, each step checked; raises PathRefused."""
        current = self.root
        for index, part in enumerate(parts):
            try:
                entries = os.listdir(current)
            except OSError:
                raise PathRefused(f"no file {name!r} in the data folder") from None
            if part not in entries:
                raise PathRefused(f"no file {name!r} in the data folder (names are matched exactly, case included)")
            candidate = os.path.join(current, part)
            if os.path.islink(candidate):
                resolved = os.path.realpath(candidate)
                if self._inside(resolved) is None:
                    raise _leaves(name)
                candidate = resolved
            if index < len(parts) - 1 and not os.path.isdir(candidate):
                raise PathRefused(f"no file {name!r} in the data folder")
            current = candidate
        return current

    def resolve(self, name: str) -> DataFile:
        """The regular file ``name`` names; raises PathRefused with the reason when there is none."""
        parts = _components(name)
        real = self._follow(name, parts)
        try:
            info = os.stat(real)
        except OSError:
            raise PathRefused(f"no file {name!r} in the data folder") from None
        if stat.S_ISDIR(info.st_mode):
            raise PathRefused(f"{name!r} is a folder; name the files in it, or a pattern such as '{name}/*.csv'")
        if not stat.S_ISREG(info.st_mode):
            raise PathRefused(f"{name!r} is not a regular file (devices, FIFOs and sockets are not readable)")
        return DataFile(name="/".join(parts), real=real, size=info.st_size)

    # -- listing -------------------------------------------------------------------------------------------------

    def files(self, limit: int = MAX_LISTED_FILES) -> Iterator[DataFile]:
        """Every visible regular file, sorted by name, at most ``limit``.

        Hidden entries are skipped; symbolic links to files inside the folder are listed under their own
        name; folders reached through a symbolic link are not walked (no loops, no duplicates).
        """
        for count, (name, real, size) in enumerate(self._walk(self.root, ""), start=1):
            yield DataFile(name=name, real=real, size=size)
            if count >= limit:
                return

    def _walk(self, directory: str, prefix: str) -> Iterator[tuple[str, str, int]]:
        try:
            with os.scandir(directory) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith(".") or any(ord(char) < 32 for char in entry.name):
                continue
            name = prefix + entry.name
            try:
                if entry.is_symlink():
                    real = os.path.realpath(entry.path)
                    if self._inside(real) is None:
                        continue
                    info = os.stat(real)
                    if stat.S_ISREG(info.st_mode):
                        yield name, real, info.st_size
                    continue
                if entry.is_dir(follow_symlinks=False):
                    yield from self._walk(entry.path, name + "/")
                elif entry.is_file(follow_symlinks=False):
                    yield name, entry.path, entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue

    def glob(self, pattern: str) -> list[DataFile]:
        """The visible files matching ``pattern``, sorted by name.

        ``*``, ``?`` and ``[...]`` match within one path component; a ``**`` component matches any number of
        folders (``logs/**/*.log``). The pattern obeys the same rules as a name (relative, no ``..``, no
        hidden components).
        """
        parts = _components(pattern)
        return [file for file in self.files() if _matches(parts, file.name.split("/"))]

    # -- reading -------------------------------------------------------------------------------------------------

    def read(self, file: DataFile, limit: int) -> bytes:
        """The contents of ``file``, at most ``limit`` bytes; raises PathRefused when they are more, or when the
        file changed into something else since it was resolved."""
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            descriptor = os.open(file.real, flags)
        except OSError:
            raise PathRefused(f"file {file.name!r} could not be opened") from None
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                raise PathRefused(f"{file.name!r} is not a regular file")
            opened = _descriptor_path(descriptor)
            if opened is not None and self._inside(opened) is None:
                raise _leaves(file.name)
            if info.st_size > limit:
                raise PathRefused(f"file {file.name!r} is {info.st_size} bytes; at most {limit} bytes can be read")
            chunks: list[bytes] = []
            remaining = limit + 1
            while remaining > 0:
                chunk = os.read(descriptor, min(remaining, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
        finally:
            os.close(descriptor)
        data = b"".join(chunks)
        if len(data) > limit:
            raise PathRefused(f"file {file.name!r} is more than {limit} bytes; at most {limit} bytes can be read")
        return data


def _descriptor_path(descriptor: int) -> str | None:
    """The path the kernel reports for an open descriptor (Linux), or None where that is not available."""
    try:
        return os.readlink(f"/proc/self/fd/{descriptor}")
    except OSError:
        return None


def _matches(pattern: list[str], parts: list[str]) -> bool:
    """Whether path ``parts`` match pattern components, ``**`` standing for any number of folders."""
    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        if not rest:
            return bool(parts)
        return any(_matches(rest, parts[skip:]) for skip in range(len(parts)))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _matches(rest, parts[1:])


def folder_from(path: str | Path | None) -> DataFolder | None:
    """A :class:`DataFolder` for ``path``, or None when no folder is configured."""
    return None if path is None else DataFolder(path)
