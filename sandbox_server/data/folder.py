"""The data folder: the one place on the host the server may read, and the rules that keep it there.

A user may point the server at a folder (``--data-dir``) so that code can compute over files by name instead of
the model copying their contents into a call. Everything that touches that folder goes through this module:
resolving a name to a file, expanding a pattern, listing, and reading. Nothing here writes, creates or
deletes anything.

Containment rules, applied to every name before anything is opened:

- names are relative, ``/``-separated paths; absolute paths, ``..``, ``.``, empty components, backslashes,
  NUL and other control characters and lone surrogates are refused, as are names longer than
  :data:`MAX_NAME_CHARS`, with a component longer than :data:`MAX_COMPONENT_BYTES` or with more than
  :data:`MAX_DEPTH` components;
- a component that starts with a dot (a hidden file or folder) is refused, wherever it appears;
- every component must match a directory entry exactly, case included, so a case-insensitive file system
  cannot be used to reach an entry under another spelling;
- a symbolic link is followed only when its target, fully resolved, is inside the folder and has no hidden
  component; otherwise the name is refused with the same message whether or not the target exists;
- only regular files are read: directories, FIFOs, sockets and devices are refused, and files are opened
  with ``O_NONBLOCK | O_NOFOLLOW``, checked again with ``fstat``, and (on Linux) the opened descriptor's
  real path is checked to be inside the folder, which closes the gap between checking a path and opening it.

Listings and patterns show exactly the files a name can reach. An entry whose name a request could not spell is
left out, and so is everything under such a folder: a name that is not UTF-8 (a file created from raw bytes such as
``caf\\xe9.csv``; Python holds it with a lone surrogate, which JSON cannot carry), one with a control character
or a backslash, a top-level name that reads as a home or drive path, and folders deeper than :data:`MAX_DEPTH`
levels or whose names would exceed :data:`MAX_NAME_CHARS`. Each listing logs, once, how many entries it left out
and why. Renaming such an entry would invent a name that could collide with a real one, so none is invented.

Every walk is bounded and interruptible: it goes folder by folder with an explicit stack (no recursion, so
depth costs no Python frames), reads at most :data:`MAX_WALKED_ENTRIES` directory entries, yields at most
:data:`MAX_LISTED_FILES` files, and asks its ``stop`` callable before each entry (reads ask before each chunk);
when that says yes, it raises :class:`Interrupted`. :func:`off_the_loop` runs such work in a worker thread with
a ``stop`` that says yes once the calling task is cancelled.

A pattern is matched during the walk as a set of positions in the pattern (an automaton, not backtracking), so
a folder's entries cost at most one comparison per pattern component each, and folders no position can
continue into are never read.
"""

from __future__ import annotations

import logging
import os
import stat
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from sandbox_server.data.names import (
    EVERYTHING,
    MAX_COMPONENT_BYTES,
    MAX_DEPTH,
    MAX_NAME_CHARS,
    Pattern,
    components,
    is_pattern,
    leaves,
    mime_type,
    unlisted_reason,
)
from sandbox_server.data.stop import Interrupted, Stop, never, off_the_loop
from sandbox_server.errors import PathRefused
from sandbox_server.platform import descriptor_path

__all__ = [
    "MAX_COMPONENT_BYTES",
    "MAX_DEPTH",
    "MAX_LISTED_FILES",
    "MAX_NAME_CHARS",
    "MAX_WALKED_ENTRIES",
    "DataFile",
    "DataFolder",
    "Interrupted",
    "Stop",
    "is_pattern",
    "mime_type",
    "never",
    "off_the_loop",
]

logger = logging.getLogger(__name__)

MAX_LISTED_FILES = 100_000
"""Most files a listing or a pattern yields; a larger folder is listed in part."""
MAX_WALKED_ENTRIES = 250_000
"""Most directory entries one listing or pattern reads, of every kind (hidden ones and folders too); past it the
walk ends, and what it found so far is all it yields."""


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


@dataclass(slots=True)
class _Frame:
    """A folder being walked: its remaining entries in name order, and where they stand."""

    entries: Iterator[tuple[os.DirEntry[str], bool]]
    prefix: str
    depth: int
    states: frozenset[int]


class _WalkEnded(Exception):
    """The walk read its allowance of entries."""


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
                    raise leaves(name)
                candidate = resolved
            if index < len(parts) - 1 and not os.path.isdir(candidate):
                raise PathRefused(f"no file {name!r} in the data folder")
            current = candidate
        return current

    def resolve(self, name: str) -> DataFile:
        """The regular file ``name`` names; raises PathRefused with the reason when there is none."""
        parts = components(name)
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

    def folder_entries(self, name: str) -> list[tuple[str, bool]] | None:
        """The visible entries directly inside the folder ``name`` names (``""`` for the data folder itself) as
        ``(name, is_folder)``, or None when ``name`` is not a folder of it; raises PathRefused when ``name`` leaves
        it. Entries no request could name are left out, as in listings."""
        if name == "":
            real = self.root
        else:
            parts = components(name)
            try:
                real = self._follow(name, parts)
            except PathRefused as exc:
                if "not inside" in exc.message:
                    raise
                return None
            if not os.path.isdir(real):
                return None
        entries: list[tuple[str, bool]] = []
        with os.scandir(real) as scan:
            for entry in scan:
                if entry.name.startswith(".") or unlisted_reason(entry.name, top=name == "") is not None:
                    continue
                target = entry.path
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    if self._inside(target) is None:
                        continue
                if os.path.isdir(target):
                    entries.append((entry.name, True))
                elif os.path.isfile(target):
                    entries.append((entry.name, False))
        return sorted(entries)

    # -- listing -------------------------------------------------------------------------------------------------

    def files(
        self, limit: int = MAX_LISTED_FILES, *, after: str | None = None, stop: Stop = never
    ) -> Iterator[DataFile]:
        """Every visible regular file, sorted by name, at most ``limit``.

        Hidden entries are skipped; symbolic links to files inside the folder are listed under their own
        name; folders reached through a symbolic link are not walked (no loops, no duplicates); entries no name
        can reach are left out (see the module's description).

        Args:
            limit: Most files to yield.
            after: Yield only names that sort after this one; folders whose files all sort before it are not read.
            stop: Asked before each entry; the walk raises :class:`Interrupted` once it says True.
        """
        return self._walk(None, limit, after, stop)

    def glob(self, pattern: str, *, stop: Stop = never) -> list[DataFile]:
        """The visible files matching ``pattern``, sorted by name.

        ``*``, ``?`` and ``[...]`` match within one path component; a ``**`` component matches any number of
        folders (``logs/**/*.log``). The pattern obeys the same rules as a name (relative, no ``..``, no
        hidden components, at most :data:`MAX_DEPTH` components).
        """
        return list(self.matching(pattern, stop=stop))

    def matching(self, pattern: str, *, stop: Stop = never) -> Iterator[DataFile]:
        """The files ``pattern`` matches, as :meth:`glob` finds them, one at a time; the pattern is checked at once."""
        return self._walk(Pattern(components(pattern)), MAX_LISTED_FILES, None, stop)

    def _walk(self, pattern: Pattern | None, limit: int, after: str | None, stop: Stop) -> Iterator[DataFile]:
        left_out: Counter[str] = Counter()
        budget = [MAX_WALKED_ENTRIES]
        start = EVERYTHING if pattern is None else pattern.start
        yielded = 0
        ended = False
        try:
            frames = [_Frame(self._entries(self.root, budget, stop), "", 1, start)]
            while frames:
                frame = frames[-1]
                item = next(frame.entries, None)
                if item is None:
                    frames.pop()
                    continue
                if stop():
                    raise Interrupted
                entry, is_folder = item
                reason = unlisted_reason(entry.name, top=frame.depth == 1)
                if reason is not None:
                    left_out[reason] += 1
                    continue
                name = frame.prefix + entry.name
                states = frame.states if pattern is None else pattern.step(frame.states, entry.name)
                if is_folder:
                    inner = name + "/"
                    if after is not None and inner < after and not after.startswith(inner):
                        continue  # every name inside sorts before ``after``
                    if pattern is not None and not pattern.continues(states):
                        continue
                    if frame.depth >= MAX_DEPTH:
                        left_out[f"in folders deeper than {MAX_DEPTH} levels"] += 1
                    elif len(inner) + 1 > MAX_NAME_CHARS:
                        left_out[f"in folders whose names would pass {MAX_NAME_CHARS} characters"] += 1
                    else:
                        frames.append(_Frame(self._entries(entry.path, budget, stop), inner, frame.depth + 1, states))
                    continue
                if (after is not None and name <= after) or (pattern is not None and not pattern.accepts(states)):
                    continue
                if len(name) > MAX_NAME_CHARS:
                    left_out[f"whose names pass {MAX_NAME_CHARS} characters"] += 1
                    continue
                found = self._file(entry, name)
                if found is None:
                    continue
                yield found
                yielded += 1
                if yielded >= limit:
                    return
        except _WalkEnded:
            ended = True
        finally:
            notes = [f"{count} {'entry' if count == 1 else 'entries'} {why}" for why, count in sorted(left_out.items())]
            if ended:
                notes.append(f"the rest of the folder, after reading {MAX_WALKED_ENTRIES} entries")
            if notes:
                logger.warning("data folder listing left out %s", "; ".join(notes))

    def _entries(self, directory: str, budget: list[int], stop: Stop) -> Iterator[tuple[os.DirEntry[str], bool]]:
        """The entries of ``directory`` that are not hidden, each with whether it is a folder (not a link to one),
        in the order that makes a walk's names sorted: a folder ``a`` sorts as ``a/``, after ``a-b``."""
        listed: list[tuple[str, os.DirEntry[str], bool]] = []
        try:
            with os.scandir(directory) as scan:
                for entry in scan:
                    if stop():
                        raise Interrupted
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise _WalkEnded
                    if entry.name.startswith("."):
                        continue
                    try:
                        is_folder = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        continue
                    listed.append((entry.name + "/" if is_folder else entry.name, entry, is_folder))
        except OSError:
            return iter(())
        listed.sort(key=lambda item: item[0])
        return ((entry, is_folder) for _, entry, is_folder in listed)

    def _file(self, entry: os.DirEntry[str], name: str) -> DataFile | None:
        """The listed file an entry stands for: a regular file, or a link that resolves to one inside."""
        try:
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if self._inside(real) is None:
                    return None
                info = os.stat(real)
                return DataFile(name=name, real=real, size=info.st_size) if stat.S_ISREG(info.st_mode) else None
            if entry.is_file(follow_symlinks=False):
                return DataFile(name=name, real=entry.path, size=entry.stat(follow_symlinks=False).st_size)
        except OSError:
            pass
        return None

    # -- reading -------------------------------------------------------------------------------------------------

    def read(self, file: DataFile, limit: int, *, stop: Stop = never) -> bytes:
        """The contents of ``file``, at most ``limit`` bytes; raises PathRefused when they are more, or when the
        file changed into something else since it was resolved, and :class:`Interrupted` when ``stop`` says so
        between chunks."""
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        if stop():
            raise Interrupted
        try:
            descriptor = os.open(file.real, flags)
        except OSError:
            raise PathRefused(f"file {file.name!r} could not be opened") from None
        try:
            info = os.fstat(descriptor)
            if not stat.S_ISREG(info.st_mode):
                raise PathRefused(f"{file.name!r} is not a regular file")
            opened = descriptor_path(descriptor)
            if opened is None:
                # No way to ask the system what was opened: the checked path must still lead inside, to this very
                # file (the same device and inode), now that it is open.
                opened = os.path.realpath(file.real)
                try:
                    same = os.stat(opened)
                except OSError:
                    raise leaves(file.name) from None
                if (same.st_dev, same.st_ino) != (info.st_dev, info.st_ino):
                    raise leaves(file.name)
            if self._inside(opened) is None:
                raise leaves(file.name)
            if info.st_size > limit:
                raise PathRefused(f"file {file.name!r} is {info.st_size} bytes; at most {limit} bytes can be read")
            # The first read asks for one byte past the size seen, so the whole of a file that does not change comes
            # in one buffer, and one that grew meanwhile shows it; what follows, if anything, comes in chunks.
            chunks: list[bytes] = []
            remaining = limit + 1
            wanted = min(remaining, info.st_size + 1)
            while remaining > 0:
                chunk = os.read(descriptor, wanted)
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
                wanted = min(remaining, _READ_CHUNK)
                if stop():
                    raise Interrupted
        finally:
            os.close(descriptor)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if len(data) > limit:
            raise PathRefused(f"file {file.name!r} is more than {limit} bytes; at most {limit} bytes can be read")
        return data


_READ_CHUNK = 1 << 20
