"""Node's ``fs``, read-only, over the data folder: what is read before the run, and what code asks for while it runs.

``js_runtime/node/fs.js`` answers synchronous calls (``readFileSync``, ``existsSync``, ``readdirSync``,
``statSync``) from what the host read before the run: the names that appear as string literals in the code, each a
file (its bytes), a folder (its entries) or nothing. Asynchronous calls (``fs.promises``) ask the host at run time
through the host-call bridge; :class:`FsService` answers them. Both go through :class:`DataFolder`, with the same
containment as the ``files`` argument, and share one execution's byte budget (``max_files_bytes``) and file count.
"""

from __future__ import annotations

import base64
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sandbox_server.data.folder import DataFile, DataFolder, Interrupted, Stop, off_the_loop
from sandbox_server.data.names import MAX_NAME_CHARS
from sandbox_server.errors import PathRefused
from sandbox_server.sandbox.protocol import HostCallFailed

__all__ = ["FS_KINDS", "FsBudget", "FsService", "preload_names", "uses_fs"]

FS_KINDS = ("fs.readFile", "fs.stat", "fs.readdir")
"""The host calls of Node's fs."""
MAX_LITERALS = 200
"""Most string literals of the code looked up in the folder before the run."""

# A quoted string on one line, without escapes or template substitutions: a name as the code writes it.
_LITERAL = re.compile(r"""(['"`])([^'"`\\\n\r$]{1,""" + str(MAX_NAME_CHARS) + r"""})\1""")
_USES_FS = re.compile(r"""\bfs\b|\b(?:readFileSync|existsSync|readdirSync|statSync|readFile|readdir)\b""")


def uses_fs(code: str) -> bool:
    """Whether ``code`` may use Node's fs (then its literals are looked up before the run)."""
    return _USES_FS.search(code) is not None


def folder_name(given: str) -> str | None:
    """The data-folder name a path as code writes it stands for (``./a//b.csv`` and ``/a/b.csv`` are ``a/b.csv``:
    the working directory is ``/``), or None for a path that leaves the folder."""
    normal = posixpath.normpath(given)
    if normal == ".." or normal.startswith("../"):
        return None
    # The working directory is `/` and the data folder is what it holds: '/a.csv' is 'a.csv'.
    normal = normal.lstrip("/")
    return "" if normal in (".", "") else normal


def preload_names(code: str) -> list[str]:
    """The distinct data-folder names the code's string literals may stand for, in order, at most
    :data:`MAX_LITERALS`."""
    names: dict[str, None] = {}
    for match in _LITERAL.finditer(code):
        name = folder_name(match.group(2))
        if name is not None and name not in names:
            names[name] = None
            if len(names) >= MAX_LITERALS:
                break
    return list(names)


@dataclass(slots=True)
class FsBudget:
    """What one execution may still read from the folder, before and during the run together."""

    files: int
    bytes: int
    read: set[str] = field(default_factory=set)

    def take(self, file: DataFile) -> None:
        """Count ``file`` in, or raise PathRefused naming the cap it would pass."""
        if file.name in self.read:
            return
        if len(self.read) >= self.files:
            raise PathRefused(
                f"this execution has read {self.files} data-folder files, the most one execution may (max_files)"
            )
        if file.size > self.bytes:
            raise PathRefused(
                f"file {file.name!r} is {file.size} bytes, more than this execution may still read ({self.bytes} "
                "of max_files_bytes left)"
            )
        self.read.add(file.name)
        self.bytes -= file.size


def preload_entries(
    folder: DataFolder, names: Iterable[str], budget: FsBudget, stop: Stop
) -> tuple[list[DataFile], list[dict[str, Any]]]:
    """For each name: a file to read before the run (within ``budget``; past it the name is simply not
    preloaded), a folder's entries, or a mark that nothing has that name. Returns the files to read and the
    manifest entries of the rest."""
    files: list[DataFile] = []
    others: list[dict[str, Any]] = []
    for name in names:
        if stop():
            raise Interrupted
        try:
            entries = folder.folder_entries(name)
        except PathRefused:
            # Outside the folder or hidden in it: to the code, nothing has that name.
            others.append({"name": name, "fs": True, "kind": "missing"})
            continue
        if entries is not None:
            others.append(
                {"name": name, "fs": True, "kind": "dir", "entries": [{"name": n, "dir": d} for n, d in entries]}
            )
            continue
        try:
            file = folder.resolve(name)
        except PathRefused:
            others.append({"name": name, "fs": True, "kind": "missing"})
            continue
        try:
            budget.take(file)
        except PathRefused:
            continue
        files.append(file)
    return files, others


def _failure(code: str, advice: str) -> HostCallFailed:
    return HostCallFailed({"name": "Error", "code": code, "message": advice, "advice": advice})


class FsService:
    """Answers the fs host calls of one execution, within its budget."""

    def __init__(self, folder: DataFolder, budget: FsBudget) -> None:
        self._folder = folder
        self._budget = budget

    async def __call__(self, kind: str, payload: Any) -> Any:
        if kind not in FS_KINDS:
            raise HostCallFailed(
                {
                    "name": "Error",
                    "code": "EROFS",
                    "message": f"{kind!r} is not a read of the data folder, which is "
                    "read-only: fs here reads files, lists folders and tells what a name is",
                }
            )
        name = payload.get("path") if isinstance(payload, dict) else None
        if not isinstance(name, str) or len(name) > MAX_NAME_CHARS:
            raise HostCallFailed({"name": "TypeError", "message": "an fs call needs a path"})
        checked = folder_name(name)
        if checked is None:
            raise _failure("EACCES", "it is not inside the data folder")
        return await off_the_loop(lambda stop: self._answer(kind, checked, stop))

    def _answer(self, kind: str, name: str, stop: Stop) -> Any:
        folder = self._folder
        try:
            entries = folder.folder_entries(name)
        except PathRefused as exc:
            raise _failure("EACCES", exc.message) from None
        if kind == "fs.readdir":
            if entries is None:
                raise _failure("ENOTDIR" if self._is_file(name) else "ENOENT", "")
            return {"entries": [{"name": n, "dir": d} for n, d in entries]}
        if entries is not None:
            if kind == "fs.stat":
                return {"kind": "dir", "size": 4096, "mtimeMs": 0}
            raise _failure("EISDIR", "")
        try:
            file = folder.resolve(name)
        except PathRefused as exc:
            raise _failure("ENOENT", exc.message) from None
        if kind == "fs.stat":
            return {"kind": "file", "size": file.size, "mtimeMs": 0}
        try:
            self._budget.take(file)
            data = folder.read(file, file.size, stop=stop)
        except PathRefused as exc:
            raise _failure("EACCES", exc.message) from None
        return {"base64": base64.b64encode(data).decode("ascii")}

    def _is_file(self, name: str) -> bool:
        try:
            self._folder.resolve(name)
        except PathRefused:
            return False
        return True
