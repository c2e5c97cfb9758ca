"""From names and ranges (``lodash``, ``date-fns@^4``) to the exact package versions they need.

Versions are chosen as npm chooses them: the ``latest`` tag when it satisfies the range, else the highest version
that does (node-semver's rules, prereleases only when asked for). A package already in the lock whose version
satisfies a request serves it, so that adding one package does not move the others. ``dependencies``,
``peerDependencies`` (npm 7 and later install them) and ``optionalDependencies`` without an ``os``/``cpu``
restriction are followed; dependencies on git, URLs or files are refused, since only a registry tarball carries the
integrity this checks.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

import nodesemver

from sandbox_server.errors import PackageError
from sandbox_server.packages.lock import Lock, LockedPackage, Root, package_key
from sandbox_server.packages.registry import Registry, check_name

__all__ = ["Wanted", "parse_spec", "resolve"]

logger = logging.getLogger(__name__)

_TAG = re.compile(r"^[A-Za-z][\w.-]*$")
_NOT_REGISTRY = ("git+", "git:", "github:", "gitlab:", "bitbucket:", "http:", "https:", "file:", "link:", "workspace:")


@dataclass(frozen=True, slots=True)
class Wanted:
    """A name and the range (or dist-tag) asked for it; ``range`` is ``latest`` when none was given."""

    name: str
    range: str


def parse_spec(text: str) -> Wanted:
    """``NAME``, ``NAME@RANGE`` or ``NAME@TAG`` (``@scope/name@^1``); raises :class:`PackageError` otherwise."""
    text = text.strip()
    at = text.find("@", 1)
    name, wanted = (text, "") if at < 0 else (text[:at], text[at + 1 :].strip())
    check_name(name)
    return Wanted(name, _checked_range(wanted or "latest", name))


def _checked_range(wanted: str, name: str) -> str:
    if wanted.startswith(_NOT_REGISTRY) or ("/" in wanted and not wanted.startswith("npm:")):
        raise PackageError(
            f"{name}@{wanted}: only versions from the registry can be added (a version, a range such as ^1.2 or "
            "a tag such as latest), since only those come with an integrity to check"
        )
    if wanted.startswith("npm:"):
        return wanted
    if _TAG.match(wanted) or nodesemver.valid_range(wanted, loose=True) is not None:
        return wanted
    raise PackageError(f"{name}@{wanted}: {wanted!r} is neither a semver range nor a tag")


def _pick(document: dict[str, Any], name: str, wanted: str) -> dict[str, Any]:
    versions: dict[str, Any] = document["versions"]
    tags = document.get("dist-tags") if isinstance(document.get("dist-tags"), dict) else {}
    assert isinstance(tags, dict)
    if _TAG.match(wanted) and nodesemver.valid_range(wanted, loose=True) is None:
        tagged = tags.get(wanted)
        if not isinstance(tagged, str) or tagged not in versions:
            raise PackageError(f"{name}@{wanted}: the registry has no tag {wanted!r} (tags: {', '.join(sorted(tags))})")
        return versions[tagged]  # type: ignore[no-any-return]
    latest = tags.get("latest")
    if isinstance(latest, str) and latest in versions and nodesemver.satisfies(latest, wanted, loose=True):
        return versions[latest]  # type: ignore[no-any-return]
    best = nodesemver.max_satisfying(list(versions), wanted, loose=True)
    if best is None:
        newest = ", ".join(sorted(versions, key=_sort_key)[-5:])
        raise PackageError(f"{name}@{wanted}: no version satisfies {wanted!r} (newest: {newest})")
    return versions[str(best)]  # type: ignore[no-any-return]


def _sort_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) if part.isdigit() else -1 for part in re.split(r"[.+-]", version)[:3])


def _dependencies(manifest: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """``(name, range, optional)`` of what a version needs, in a fixed order."""
    found: dict[str, tuple[str, bool]] = {}
    peers_meta = manifest.get("peerDependenciesMeta") if isinstance(manifest.get("peerDependenciesMeta"), dict) else {}
    assert isinstance(peers_meta, dict)
    for field, optional in (("peerDependencies", False), ("optionalDependencies", True), ("dependencies", False)):
        values = manifest.get(field)
        if not isinstance(values, dict):
            continue
        for dep, wanted in values.items():
            if not isinstance(dep, str) or not isinstance(wanted, str):
                continue
            meta = peers_meta.get(dep) if field == "peerDependencies" else None
            is_optional = optional or (isinstance(meta, dict) and meta.get("optional") is True)
            found[dep] = (wanted.strip() or "*", is_optional)
    return [(dep, wanted, optional) for dep, (wanted, optional) in sorted(found.items())]


def _entry(name: str, manifest: dict[str, Any]) -> LockedPackage:
    dist = manifest.get("dist") if isinstance(manifest.get("dist"), dict) else None
    version = manifest.get("version")
    if dist is None or not isinstance(version, str):
        raise PackageError(f"{name}: the registry's entry has no version or dist")
    integrity, tarball = dist.get("integrity"), dist.get("tarball")
    if not isinstance(integrity, str) or not isinstance(tarball, str):
        raise PackageError(
            f"{name}@{version}: the registry gives no integrity (sha512) for its tarball, so it cannot be checked"
        )
    if manifest.get("hasInstallScript") is True:
        logger.warning("%s@%s declares an install script; it is not run (the sandbox never runs one)", name, version)
    return LockedPackage(name, version, integrity, tarball)


def resolve(registry: Registry, wanted: list[Wanted], lock: Lock) -> Lock:
    """A new lock: ``lock``'s roots plus ``wanted`` (replacing a root of the same name), with every package they
    need, packages of ``lock`` kept where they serve; index digests are empty for packages not in ``lock``."""
    roots = dict(lock.roots)
    chosen: dict[str, LockedPackage] = dict(lock.packages)
    by_name: dict[str, set[str]] = {}
    for entry in chosen.values():
        by_name.setdefault(entry.name, set()).add(entry.version)
    fresh: set[str] = set()
    queue: deque[str] = deque()

    def serve(name: str, wanted_range: str, optional: bool, for_what: str) -> str | None:
        real, real_range = name, wanted_range
        if wanted_range.startswith("npm:"):
            alias = parse_spec(wanted_range.removeprefix("npm:"))
            real, real_range = alias.name, alias.range
        else:
            _checked_range(real_range, f"{for_what} -> {name}")
        is_range = nodesemver.valid_range(real_range, loose=True) is not None
        if is_range:
            existing = [v for v in by_name.get(real, ()) if nodesemver.satisfies(v, real_range, loose=True)]
            if existing:
                return package_key(real, str(nodesemver.max_satisfying(existing, real_range, loose=True)))
        try:
            manifest = _pick(registry.document(real), real, real_range)
            if optional and (manifest.get("os") or manifest.get("cpu")):
                return None  # a platform-specific optional part (a native binary): of no use in the sandbox
            entry = _entry(real, manifest)
        except PackageError:
            if optional:
                logger.info("optional dependency %s@%s of %s skipped", name, wanted_range, for_what)
                return None
            raise
        if entry.key not in chosen:
            chosen[entry.key] = entry
            by_name.setdefault(real, set()).add(entry.version)
            fresh.add(entry.key)
            queue.append(entry.key)
            deps[entry.key] = _dependencies(manifest)
        return entry.key

    deps: dict[str, list[tuple[str, str, bool]]] = {}
    for item in wanted:
        key = serve(item.name, item.range, False, "the command line")
        assert key is not None
        roots[item.name] = Root(item.range, chosen[key].version)
    while queue:
        key = queue.popleft()
        served: dict[str, str] = {}
        for dep, dep_range, optional in deps.pop(key):
            target = serve(dep, dep_range, optional, key)
            if target is not None:
                served[dep] = target
        entry = chosen[key]
        chosen[key] = LockedPackage(entry.name, entry.version, entry.integrity, entry.tarball, served, entry.index)
    return Lock(roots, chosen).pruned()
