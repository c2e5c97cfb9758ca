"""The worker's side of packages: which stored files a call's code reaches, read and checked against the lock.

The server names its packages folder and the digest of the lock it started with in each run request. The worker
opens that lock once (and again only when the digest changes), checking that the lock file still has that digest,
then each package's index against the digest the lock holds, and each file it reads against the index: a file
whose content no longer matches is refused (:class:`~sandbox_server.errors.TamperedPackage`), never sent. A file is
read and checked once per worker process and kept in memory, so later calls send exactly the bytes checked.

For one call, :meth:`PackageSet.payload` starts from the module names the code writes as string literals, resolves
them as Node does (:mod:`.nodepath`) and follows the names each reached file uses, and returns what the loader in
the isolate (``js_runtime/packages.js``) needs: every reached module's source and format, and for each name it uses
the module that name resolves to (or Node's error for it). The isolate resolves nothing itself.
"""

from __future__ import annotations

import json
import logging
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox_server.errors import PackageError, TamperedPackage
from sandbox_server.packages.index import ModuleInfo, ascii_source
from sandbox_server.packages.integrity import file_digest
from sandbox_server.packages.lock import Lock
from sandbox_server.packages.nodepath import Failure, Kind, PackageFiles, Resolver, Target
from sandbox_server.packages.store import LOCK_NAME, package_folder

__all__ = ["MAX_SENT_BYTES", "PackageSet", "Payload", "code_specifiers"]

logger = logging.getLogger(__name__)

MAX_SENT_BYTES = 64 * 2**20
"""Most bytes of package sources one call may be sent."""

# A module named with a string literal, after the worker's rewrite of import statements: require('x'),
# __importStatic('x') (an import statement) and __import('x') (an import() call).
_SPECIFIER = re.compile(r"""\b(require|__importStatic|__import)\s*\(\s*(['"`])([^'"`\\\n$]+)\2\s*[,)]""")


def code_specifiers(code: str) -> list[tuple[Kind, str]]:
    """``(kind, specifier)`` of every module the (rewritten) code names with a string literal, in order."""
    found: dict[tuple[Kind, str], None] = {}
    for match in _SPECIFIER.finditer(code):
        kind: Kind = "require" if match.group(1) == "require" else "import"
        found[(kind, match.group(3))] = None
    return list(found)


@dataclass(slots=True)
class Payload:
    """What one call sends the isolate about packages.

    Attributes:
        text: For ``js_runtime/packages.js``: a line of JSON (``{available, entries, failures, modules}``, each module
            with the range of its source), then the sources, one after another, all ASCII, neither escaped nor
            parsed on the way.
        builtins: Node built-in modules the sent modules require.
        sources: The sent sources, to find the globals they use (``process``, ``Buffer``, web APIs).
    """

    text: str
    builtins: set[str] = field(default_factory=set)
    sources: list[str] = field(default_factory=list)


def _key(kind: Kind, specifier: str) -> str:
    return ("r:" if kind == "require" else "i:") + specifier


class _Packages(Mapping[str, PackageFiles]):
    """The lock's packages as resolution sees them, each read (and checked) on first use."""

    def __init__(self, owner: PackageSet) -> None:
        self._owner = owner

    def __getitem__(self, key: str) -> PackageFiles:
        return self._owner.package(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._owner.lock.packages)

    def __len__(self) -> int:
        return len(self._owner.lock.packages)

    def __contains__(self, key: object) -> bool:
        return key in self._owner.lock.packages


class PackageSet:
    """The packages of the lock with digest ``digest`` in the folder ``root``, as one worker reads them."""

    def __init__(self, root: Path, digest: str) -> None:
        self.root = root
        self.digest = digest
        text = _read(root / LOCK_NAME, "the packages lock")
        if file_digest(text) != digest:
            raise TamperedPackage(
                f"the packages lock {root / LOCK_NAME} changed since the server started (packages add or remove): "
                "restart the server to use the packages as they are now"
            )
        self.lock = Lock.from_text(text.decode("utf-8"), str(root / LOCK_NAME))
        self._files: dict[str, PackageFiles] = {}
        self._modules: dict[str, dict[str, ModuleInfo]] = {}
        self._digests: dict[str, dict[str, str]] = {}
        self._texts: dict[tuple[str, str, bool], str] = {}
        self._records: dict[tuple[str, str], str] = {}
        names = {entry.name for entry in self.lock.packages.values()}
        self._shared = {
            name: sum(1 for entry in self.lock.packages.values() if entry.name == name) > 1 for name in names
        }
        roots = {name: f"{name}@{root.version}" for name, root in self.lock.roots.items()}
        self.resolver = Resolver(_Packages(self), roots)

    @property
    def available(self) -> list[str]:
        """The names the user added, sorted."""
        return sorted(self.lock.roots)

    def base(self, key: str) -> str:
        """The package's folder as the isolate names it: ``/node_modules/NAME``, or, for a second version of a name,
        one under ``/node_modules/.store/``."""
        entry = self.lock.packages[key]
        root = self.lock.roots.get(entry.name)
        if self._shared.get(entry.name) and (root is None or root.version != entry.version):
            return f"/node_modules/.store/{key}/node_modules/{entry.name}"
        return f"/node_modules/{entry.name}"

    def package(self, key: str) -> PackageFiles:
        if key in self._files:
            return self._files[key]
        entry = self.lock.packages[key]
        folder = package_folder(self.root, key)
        index_bytes = _read(folder / "index.json", f"the index of {key}")
        if not entry.index or file_digest(index_bytes) != entry.index:
            raise TamperedPackage(
                f"the index of package {key} ({folder / 'index.json'}) does not match the lock: the stored package "
                "was changed after it was added; add it again "
                f"(sandbox-server packages add {entry.name}@{entry.version})"
            )
        index = json.loads(index_bytes)
        digests: dict[str, str] = index["files"]
        self._digests[key] = digests
        self._digests[key + "\0derived"] = {
            path: info["derived"] for path, info in index["modules"].items() if info.get("derived")
        }
        self._modules[key] = {path: ModuleInfo.from_json(info) for path, info in index["modules"].items()}
        manifests: dict[str, Any] = {}
        for path in digests:
            if posixpath.basename(path) == "package.json":
                try:
                    manifests[path] = json.loads(self.text(key, path))
                except ValueError:
                    manifests[path] = None
        files = PackageFiles(key, entry.name, self.base(key), frozenset(digests), manifests, entry.dependencies)
        self._files[key] = files
        return files

    def text(self, key: str, path: str, derived: bool = False) -> str:
        """The checked text of one stored file (its runnable form when ``derived``)."""
        cached = self._texts.get((key, path, derived))
        if cached is not None:
            return cached
        if key not in self._digests:
            self.package(key)
        digests = self._digests[key + "\0derived"] if derived else self._digests[key]
        expected = digests.get(path)
        file = package_folder(self.root, key) / ("derived" if derived else "files") / path
        data = _read(file, f"file {path} of {key}")
        if expected is None or file_digest(data) != expected:
            entry = self.lock.packages[key]
            raise TamperedPackage(
                f"{file} does not match the digest its lock recorded: the stored package {key} was changed after it "
                "was added, so it is not loaded; add it again "
                f"(sandbox-server packages add {entry.name}@{entry.version})"
            )
        # Every source goes to the isolate as ASCII, taken as it is (derived files are ASCII already).
        text = ascii_source(data.decode("utf-8", "replace"))
        self._texts[(key, path, derived)] = text
        return text

    def payload(self, specifiers: list[tuple[Kind, str]]) -> Payload | None:
        """What the isolate needs for code naming ``specifiers``; None when none of them is a package."""
        entries: dict[str, int] = {}
        failures: dict[str, list[str | None]] = {}
        ids: dict[tuple[str, str], int] = {}
        order: list[tuple[str, str]] = []
        wanted = False
        for kind, specifier in specifiers:
            result = self.resolver.resolve(specifier, kind)
            if isinstance(result, Target) and result.builtin:
                continue
            wanted = True
            if isinstance(result, Failure):
                failures[_key(kind, specifier)] = [result.code, result.message, result.package]
                continue
            entries[_key(kind, specifier)] = _number(ids, order, (result.key, result.path))
        if not wanted:
            return None
        payload = Payload("")
        records: list[str] = []
        size = 0
        done = 0
        while done < len(order):
            key, path = order[done]
            done += 1
            record, source = self._record(key, path, ids, order, payload.builtins)
            records.append(f'{record},"start":{size},"end":{size + len(source)}}}')
            size += len(source)
            if size > MAX_SENT_BYTES:
                raise PackageError(f"the packages this code imports come to more than {MAX_SENT_BYTES} bytes of source")
            payload.sources.append(source)
        head = json.dumps({"available": self.available, "entries": entries, "failures": failures})
        manifest = head[:-1] + ',"modules":[' + ",".join(records) + "]}"
        payload.text = manifest + "\n" + "".join(payload.sources)
        return payload

    def _record(
        self, key: str, path: str, ids: dict[tuple[str, str], int], order: list[tuple[str, str]], builtins: set[str]
    ) -> tuple[str, str]:
        """One module's JSON record for the isolate, and its source."""
        info = self._modules[key].get(path)
        base = self._files[key].base
        if info is None:
            kind = "json" if path.endswith(".json") else "cjs"
            if path.endswith(".node"):
                info = ModuleInfo("cjs", error="it is a native addon (.node), which the sandbox cannot load")
            else:
                info = ModuleInfo(kind)
        source = "" if info.error is not None else self.text(key, path, derived=info.derived is not None)
        deps: dict[str, int] = {}
        failed: dict[str, list[str | None]] = {}
        static_kind: Kind = "import" if info.format == "esm" else "require"
        for kind, names in ((static_kind, info.requires), ("import", info.dynamic)):
            for specifier in names:
                result = self.resolver.resolve(specifier, kind, key, path)
                if isinstance(result, Failure):
                    failed[_key(kind, specifier)] = [result.code, result.message, None]
                elif result.builtin:
                    builtins.add(result.path.split("/", 1)[0])
                else:
                    deps[_key(kind, specifier)] = _number(ids, order, (result.key, result.path))
        cached = self._records.get((key, path))
        if cached is None:
            cached = json.dumps({"id": f"{base}/{path}", "format": info.format, "error": info.error})[:-1]
            self._records[(key, path)] = cached
        links = json.dumps({"deps": deps, "failures": failed})
        return cached + "," + links[1:-1], source


def _number(ids: dict[tuple[str, str], int], order: list[tuple[str, str]], target: tuple[str, str]) -> int:
    if target not in ids:
        ids[target] = len(order)
        order.append(target)
    return ids[target]


def _read(path: Path, what: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError as exc:
        raise TamperedPackage(
            f"{what} ({path}) is missing: the packages folder was changed after it was added"
        ) from exc
    except OSError as exc:
        raise PackageError(f"cannot read {what} ({path}): {exc}") from exc
