"""Unpacking a package tarball into memory, safely, after its integrity was checked.

npm tarballs hold the package under one top folder (``package/``, sometimes another name), which is dropped, as
npm drops it. What is refused, failing the whole package: an absolute path, a ``..`` part, a name with a NUL or a
backslash, a link (symbolic or hard) whose target leaves the package, a device or FIFO, more than
:data:`MAX_FILES` files, a file over :data:`MAX_FILE_BYTES`, or more than :data:`MAX_UNPACKED_BYTES` in all
(counted as the bytes are read, so a compression bomb stops early). A link that stays inside the package is not
created (the file it names is there already) and is logged. Nothing is written to disk here.
"""

from __future__ import annotations

import gzip
import io
import logging
import posixpath
import tarfile
from typing import IO

from sandbox_server.errors import PackageError

__all__ = ["MAX_FILES", "MAX_FILE_BYTES", "MAX_UNPACKED_BYTES", "unpack"]

logger = logging.getLogger(__name__)

MAX_FILES = 20_000
"""Most files one package may hold."""
MAX_FILE_BYTES = 32 * 2**20
"""Largest single file."""
MAX_UNPACKED_BYTES = 256 * 2**20
"""Most bytes one package may unpack to."""


class _Bounded(io.RawIOBase):
    """A reader that fails once more than ``limit`` bytes have come out of ``inner``."""

    def __init__(self, inner: IO[bytes], limit: int, what: str) -> None:
        self._inner = inner
        self._left = limit
        self._what = what

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        self._left -= len(data)
        if self._left < 0:
            raise PackageError(f"{self._what}: unpacks to more than {MAX_UNPACKED_BYTES} bytes")
        buffer[: len(data)] = data
        return len(data)


def _relative(name: str, what: str) -> str:
    """The member's path inside the package (its top folder dropped), or a refusal."""
    if "\x00" in name or "\\" in name:
        raise PackageError(f"{what}: tarball entry {name!r} has a NUL or backslash in its name")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise PackageError(f"{what}: tarball entry {name!r} is an absolute path")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise PackageError(f"{what}: tarball entry {name!r} climbs out with '..'")
    return "/".join(parts[1:])


def unpack(data: bytes, what: str) -> dict[str, bytes]:
    """The files of a package tarball (gzip-compressed tar), by path inside the package."""
    files: dict[str, bytes] = {}
    total = 0
    try:
        raw = gzip.GzipFile(fileobj=io.BytesIO(data))
        stream = io.BufferedReader(_Bounded(raw, MAX_UNPACKED_BYTES + 2**20, what))  # type: ignore[arg-type]
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for member in archive:
                path = _relative(member.name, what)
                if member.isdir():
                    continue
                if member.issym() or member.islnk():
                    _check_link(member, path, what)
                    continue
                if not member.isfile():
                    raise PackageError(f"{what}: tarball entry {member.name!r} is a device or FIFO, not a file")
                if not path:
                    continue
                if member.size > MAX_FILE_BYTES:
                    raise PackageError(f"{what}: file {path} is {member.size} bytes, over {MAX_FILE_BYTES}")
                total += member.size
                if total > MAX_UNPACKED_BYTES:
                    raise PackageError(f"{what}: unpacks to more than {MAX_UNPACKED_BYTES} bytes")
                if len(files) >= MAX_FILES:
                    raise PackageError(f"{what}: holds more than {MAX_FILES} files")
                extracted = archive.extractfile(member)
                content = extracted.read() if extracted is not None else b""
                if len(content) != member.size:
                    raise PackageError(f"{what}: file {path} ends early in the tarball")
                files[path] = content  # a later entry of the same path replaces it, as tar does
    except (tarfile.TarError, OSError, EOFError, gzip.BadGzipFile) as exc:
        raise PackageError(f"{what}: the tarball cannot be read: {type(exc).__name__}: {exc}") from exc
    if not files:
        raise PackageError(f"{what}: the tarball holds no files")
    return files


def _check_link(member: tarfile.TarInfo, path: str, what: str) -> None:
    target = member.linkname
    if member.issym():
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
    else:  # a hard link names a member of the archive, top folder included
        joined = posixpath.normpath(_relative(target, what)) if not target.startswith("/") else "/"
    if target.startswith("/") or joined == ".." or joined.startswith(("../", "/")):
        raise PackageError(f"{what}: tarball entry {member.name!r} links to {target!r}, outside the package")
    logger.info("%s: link %s -> %s not created (links are never unpacked)", what, path, target)
