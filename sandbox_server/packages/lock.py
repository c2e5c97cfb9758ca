"""The lock: the names a user added, and the exact version, integrity and dependencies of every package they need.

``lock.json`` in the packages folder::

    {"lockVersion": 1,
     "roots": {"date-fns": {"range": "^4", "version": "4.1.0"}},
     "packages": {"date-fns@4.1.0": {"name": "date-fns", "version": "4.1.0", "integrity": "sha512-...",
                                     "tarball": "https://...", "dependencies": {"dep": "dep@1.2.3"},
                                     "index": "<sha256 of the package's index.json>"}}}

Dependencies map the name a package requires (an npm alias may differ from the real name) to the key of the
package that serves it. ``index`` binds every stored file to the lock: the index holds each file's digest, and
the lock holds the index's. A lock written here can be given to ``packages add --lock`` elsewhere, which checks
every tarball against its integrity and every index against its digest.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sandbox_server.errors import PackageError

__all__ = ["LOCK_VERSION", "Lock", "LockedPackage", "Root", "package_key"]

LOCK_VERSION = 1


def package_key(name: str, version: str) -> str:
    return f"{name}@{version}"


@dataclass(frozen=True, slots=True)
class Root:
    """A name the user added, the range asked for, and the version chosen."""

    range: str
    version: str


@dataclass(frozen=True, slots=True)
class LockedPackage:
    """One exact package version.

    Attributes:
        name: Its registry name.
        version: Its exact version.
        integrity: The registry's ``dist.integrity`` of its tarball.
        tarball: Where it was downloaded from.
        dependencies: Name required -> key (``name@version``) of the package serving it.
        index: SHA-256 (hex) of its stored ``index.json``; empty until stored.
    """

    name: str
    version: str
    integrity: str
    tarball: str
    dependencies: dict[str, str] = field(default_factory=dict)
    index: str = ""

    @property
    def key(self) -> str:
        return package_key(self.name, self.version)


@dataclass(slots=True)
class Lock:
    """The whole lock; ``digest`` is the SHA-256 of its text as written."""

    roots: dict[str, Root] = field(default_factory=dict)
    packages: dict[str, LockedPackage] = field(default_factory=dict)

    def to_text(self) -> str:
        data = {
            "lockVersion": LOCK_VERSION,
            "roots": {
                name: {"range": root.range, "version": root.version} for name, root in sorted(self.roots.items())
            },
            "packages": {
                key: {
                    "name": entry.name,
                    "version": entry.version,
                    "integrity": entry.integrity,
                    "tarball": entry.tarball,
                    "dependencies": dict(sorted(entry.dependencies.items())),
                    "index": entry.index,
                }
                for key, entry in sorted(self.packages.items())
            },
        }
        return json.dumps(data, indent=2, ensure_ascii=True) + "\n"

    @classmethod
    def from_text(cls, text: str, where: str) -> Lock:
        """Parse a lock; raises :class:`PackageError` naming ``where`` and what is wrong."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise PackageError(f"{where} is not JSON: {exc}") from exc
        if not isinstance(data, dict) or data.get("lockVersion") != LOCK_VERSION:
            raise PackageError(f"{where} is not a sandbox-server package lock (lockVersion {LOCK_VERSION})")
        lock = cls()
        roots, packages = data.get("roots"), data.get("packages")
        if not isinstance(roots, dict) or not isinstance(packages, dict):
            raise PackageError(f"{where}: 'roots' and 'packages' must be objects")
        for key, value in packages.items():
            lock.packages[key] = _package(key, value, where)
        for name, value in roots.items():
            if not isinstance(value, dict) or not all(isinstance(value.get(k), str) for k in ("range", "version")):
                raise PackageError(f"{where}: root {name!r} needs string 'range' and 'version'")
            if package_key(name, value["version"]) not in lock.packages:
                raise PackageError(f"{where}: root {name}@{value['version']} has no entry in 'packages'")
            lock.roots[name] = Root(value["range"], value["version"])
        for entry in lock.packages.values():
            missing = [key for key in entry.dependencies.values() if key not in lock.packages]
            if missing:
                raise PackageError(f"{where}: {entry.key} depends on {missing[0]}, which has no entry")
        return lock

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.to_text().encode()).hexdigest()

    def reachable(self) -> set[str]:
        """Keys of the packages the roots need."""
        seen: set[str] = set()
        pending = [package_key(name, root.version) for name, root in self.roots.items()]
        while pending:
            key = pending.pop()
            if key in seen or key not in self.packages:
                continue
            seen.add(key)
            pending.extend(self.packages[key].dependencies.values())
        return seen

    def pruned(self) -> Lock:
        keep = self.reachable()
        return Lock(dict(self.roots), {key: entry for key, entry in self.packages.items() if key in keep})


def _package(key: str, value: Any, where: str) -> LockedPackage:
    if not isinstance(value, dict):
        raise PackageError(f"{where}: package {key!r} is not an object")
    fields = ("name", "version", "integrity", "tarball")
    if not all(isinstance(value.get(name), str) and value.get(name) for name in fields):
        raise PackageError(f"{where}: package {key!r} needs string {', '.join(fields)}")
    dependencies = value.get("dependencies", {})
    if not isinstance(dependencies, dict) or not all(isinstance(v, str) for v in dependencies.values()):
        raise PackageError(f"{where}: package {key!r} has unreadable dependencies")
    index = value.get("index", "")
    if not isinstance(index, str):
        raise PackageError(f"{where}: package {key!r} has an unreadable index digest")
    entry = LockedPackage(value["name"], value["version"], value["integrity"], value["tarball"], dependencies, index)
    if entry.key != key:
        raise PackageError(f"{where}: entry {key!r} names {entry.key}")
    return entry
