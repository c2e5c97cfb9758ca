"""The packages folder and what the ``packages`` commands do to it: add, add from a lock, remove, list.

Each command holds an exclusive lock on ``.lock`` in the folder, so that two at once do not interleave. A package
is unpacked into a temporary folder and renamed into ``store/`` only once complete; the lock file is replaced in
one rename. Files are stored read-only. Packages the new lock no longer needs are deleted.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sandbox_server.errors import PackageError
from sandbox_server.packages.index import INDEX_VERSION, build_index
from sandbox_server.packages.integrity import check_integrity, file_digest
from sandbox_server.packages.lock import Lock, LockedPackage
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.resolve import Wanted, resolve
from sandbox_server.packages.tarball import unpack

__all__ = ["LOCK_NAME", "Listed", "Store", "package_folder"]

logger = logging.getLogger(__name__)

LOCK_NAME = "lock.json"


def package_folder(root: Path, key: str) -> Path:
    """Where the package ``name@version`` is kept (a scope's slash becomes ``+``)."""
    return root / "store" / key.replace("/", "+")


@dataclass(frozen=True, slots=True)
class Listed:
    """One added package as ``packages list`` shows it."""

    name: str
    range: str
    version: str
    dependencies: int


class Store:
    """The packages folder at ``root`` (created when first written)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def lock_path(self) -> Path:
        return self.root / LOCK_NAME

    def read_lock(self) -> Lock:
        """The current lock; an empty one when nothing was added yet."""
        try:
            text = self.lock_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Lock()
        except OSError as exc:
            raise PackageError(f"cannot read {self.lock_path}: {exc}") from exc
        return Lock.from_text(text, str(self.lock_path))

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def add(self, registry: Registry, wanted: list[Wanted]) -> Lock:
        """Add ``wanted`` (and what they need) and return the new lock."""
        with self._exclusive():
            lock = resolve(registry, wanted, self.read_lock())
            return self._commit(registry, lock)

    def add_lock(self, registry: Registry, given: Lock) -> Lock:
        """Add exactly the packages of ``given`` (its roots join the current ones), checked against its integrity."""
        with self._exclusive():
            current = self.read_lock()
            merged = Lock({**current.roots, **given.roots}, {**current.packages, **given.packages})
            for name, root in given.roots.items():
                stale = current.roots.get(name)
                if stale is not None and stale.version != root.version:
                    merged.packages.pop(f"{name}@{stale.version}", None)
            return self._commit(registry, merged.pruned())

    def remove(self, name: str) -> Lock:
        """Remove the added package ``name`` (and what only it needed)."""
        with self._exclusive():
            lock = self.read_lock()
            if name not in lock.roots:
                added = ", ".join(sorted(lock.roots)) or "none"
                raise PackageError(f"{name} was not added (added: {added})")
            del lock.roots[name]
            lock = lock.pruned()
            self._write_lock(lock)
            self._delete_unused(lock)
            return lock

    def listing(self) -> list[Listed]:
        lock = self.read_lock()
        shown = []
        for name, root in sorted(lock.roots.items()):
            single = Lock({name: root}, lock.packages).reachable()
            shown.append(Listed(name, root.range, root.version, len(single) - 1))
        return shown

    def _commit(self, registry: Registry, lock: Lock) -> Lock:
        for key, entry in sorted(lock.packages.items()):
            lock.packages[key] = self._stored(registry, entry)
        self._write_lock(lock)
        self._delete_unused(lock)
        return lock

    def _stored(self, registry: Registry, entry: LockedPackage) -> LockedPackage:
        """``entry`` with the digest of its index, downloading and storing the package unless it is there intact."""
        folder = package_folder(self.root, entry.key)
        index_path = folder / "index.json"
        if index_path.is_file() and entry.index and _current(index_path.read_bytes(), entry.index):
            return entry
        what = entry.key
        data = registry.tarball(entry.tarball, what)
        check_integrity(data, entry.integrity, what)  # before a single byte is unpacked
        files = unpack(data, what)
        indexed = build_index(files)
        (self.root / "store").mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".adding-", dir=self.root / "store"))
        try:
            for base, items in (("files", files), ("derived", indexed.derived)):
                for path, content in items.items():
                    target = staging / base / path
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(content)
                    target.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
            (staging / "index.json").write_text(indexed.text, encoding="utf-8")
            (staging / "index.json").chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
            if folder.exists():
                _delete(folder)
            staging.rename(folder)
        except BaseException:
            _delete(staging)
            raise
        logger.info("stored %s (%d files)", entry.key, len(files))
        digest = file_digest(indexed.text.encode("utf-8"))
        return LockedPackage(entry.name, entry.version, entry.integrity, entry.tarball, entry.dependencies, digest)

    def _write_lock(self, lock: Lock) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".lock-", dir=self.root)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(lock.to_text())
        os.replace(temporary, self.lock_path)

    def _delete_unused(self, lock: Lock) -> None:
        store = self.root / "store"
        if not store.is_dir():
            return
        keep = {package_folder(self.root, key).name for key in lock.packages}
        for child in store.iterdir():
            if child.name not in keep:
                _delete(child)


def _current(index: bytes, digest: str) -> bool:
    """Whether a stored index is the one the lock names and was made by this version of the indexer."""
    if file_digest(index) != digest:
        return False
    try:
        return bool(json.loads(index).get("version") == INDEX_VERSION)
    except (ValueError, AttributeError):
        return False


def _delete(path: Path) -> None:
    # Stored files are read-only, their folders are not: removing a file needs only its folder's write permission.
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
