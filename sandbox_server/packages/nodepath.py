"""Module names resolved as Node 20 resolves them, over the packages of a lock.

``require(x)`` follows CommonJS's rules (a file as named, then with ``.js`` or ``.json``, then a folder's
``package.json`` ``main`` or ``index.js``), ``import`` ES modules' (the file exactly as named; a package without
``exports`` by its ``main``). A package with ``exports`` serves only what they list, under the conditions Node 20
uses: ``node``, ``require`` or ``import``, ``module-sync`` and ``default``, in the order the package wrote them;
subpath patterns (``./*``) and ``imports`` (``#name``) too. ``module`` is never read, as Node never reads it.

A package finds the packages its lock entry lists as its dependencies, itself by its own name when it has
``exports``, and then the packages the user added (what npm's flat ``node_modules`` would let it find).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["BUILTINS", "Failure", "Kind", "PackageFiles", "Resolver", "Target", "package_name"]

Kind = Literal["require", "import"]

BUILTINS = frozenset(
    [
        "assert",
        "assert/strict",
        "async_hooks",
        "buffer",
        "child_process",
        "cluster",
        "console",
        "constants",
        "crypto",
        "dgram",
        "diagnostics_channel",
        "dns",
        "dns/promises",
        "domain",
        "events",
        "fs",
        "fs/promises",
        "http",
        "http2",
        "https",
        "inspector",
        "inspector/promises",
        "module",
        "net",
        "os",
        "path",
        "path/posix",
        "path/win32",
        "perf_hooks",
        "process",
        "punycode",
        "querystring",
        "readline",
        "readline/promises",
        "repl",
        "stream",
        "stream/consumers",
        "stream/promises",
        "stream/web",
        "string_decoder",
        "sys",
        "timers",
        "timers/promises",
        "tls",
        "trace_events",
        "tty",
        "url",
        "util",
        "util/types",
        "v8",
        "vm",
        "wasi",
        "worker_threads",
        "zlib",
    ]
)
"""Node 20's built-in modules (``require('module').builtinModules``)."""

_CONDITIONS: dict[str, frozenset[str]] = {
    "require": frozenset({"node", "require", "module-sync", "default"}),
    "import": frozenset({"node", "import", "module-sync", "default"}),
}


@dataclass(frozen=True, slots=True)
class PackageFiles:
    """What resolution needs of one stored package.

    Attributes:
        key: ``name@version``.
        name: Its name.
        base: Its folder as the isolate names it (``/node_modules/lodash``).
        files: The paths of its files.
        manifests: Its ``package.json`` files, parsed, by path.
        dependencies: Name -> key of the package serving it.
    """

    key: str
    name: str
    base: str
    files: frozenset[str]
    manifests: Mapping[str, Any]
    dependencies: Mapping[str, str] = field(default_factory=dict)

    @property
    def manifest(self) -> dict[str, Any]:
        value = self.manifests.get("package.json")
        return value if isinstance(value, dict) else {}


@dataclass(frozen=True, slots=True)
class Target:
    """A resolved module: a file of a package, or a Node built-in (``key`` empty, ``path`` its name)."""

    key: str
    path: str

    @property
    def builtin(self) -> bool:
        return not self.key


@dataclass(frozen=True, slots=True)
class Failure:
    """A name that resolves to nothing: Node's error code and message."""

    code: str
    message: str
    package: str | None = None
    """The package name when the failure is that no package of that name was added."""


def package_name(specifier: str) -> tuple[str, str] | None:
    """``(name, subpath)`` of a bare specifier (``@s/p/x`` -> ``('@s/p', './x')``), None for any other."""
    if not specifier or specifier.startswith((".", "/", "#")) or "\\" in specifier or "%" in specifier:
        return None
    parts = specifier.split("/")
    count = 2 if specifier.startswith("@") else 1
    if len(parts) < count or not all(parts[:count]) or (count == 2 and parts[0] == "@"):
        return None
    name = "/".join(parts[:count])
    rest = "/".join(parts[count:])
    return name, "./" + rest if rest else "."


class Resolver:
    """Resolves specifiers among ``packages`` (by key); ``roots`` maps each added name to its key."""

    def __init__(self, packages: Mapping[str, PackageFiles], roots: Mapping[str, str]) -> None:
        self.packages = packages
        self.roots = roots

    def resolve(self, specifier: str, kind: Kind, key: str | None = None, path: str = "") -> Target | Failure:
        """Resolve ``specifier`` as ``kind`` from the file ``path`` of package ``key`` (None: the submitted code)."""
        stripped = specifier.removeprefix("node:")
        if stripped in BUILTINS or specifier.startswith("node:"):
            return Target("", stripped)
        here = self.packages.get(key) if key is not None else None
        if specifier.startswith(("./", "../")) or specifier in (".", ".."):
            if here is None:
                return _missing(specifier, kind, "/main.js")
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), specifier))
            if joined.startswith(".."):
                return _missing(specifier, kind, here.base + "/" + path)
            found = self._file(here, "" if joined == "." else joined, kind)
            return found if found is not None else _missing(specifier, kind, here.base + "/" + path)
        if specifier.startswith("#"):
            return self._imports(here, specifier, kind, path) if here is not None else _missing(specifier, kind, "")
        parsed = package_name(specifier)
        if parsed is None:
            return _missing(specifier, kind, "/main.js" if here is None else here.base + "/" + path)
        name, subpath = parsed
        target = self._find(here, name)
        if target is None:
            if here is None:
                return Failure("MODULE_NOT_FOUND", f"Cannot find package '{name}'", package=name)
            return _missing(specifier, kind, here.base + "/" + path)
        package = self.packages[target]
        exports = package.manifest.get("exports")
        if exports is not None:
            return self._exports(package, exports, subpath, kind)
        found = self._main(package, kind) if subpath == "." else self._file(package, subpath[2:], kind)
        return found if found is not None else _missing(specifier, kind, "/main.js")

    def _find(self, here: PackageFiles | None, name: str) -> str | None:
        if here is not None:
            if name in here.dependencies:
                return here.dependencies[name]
            if name == here.name and "exports" in here.manifest:
                return here.key
        return self.roots.get(name)

    def _file(self, package: PackageFiles, path: str, kind: Kind) -> Target | None:
        files = package.files
        if kind == "import":
            return Target(package.key, path) if path in files else None
        for candidate in (path, path + ".js", path + ".json"):
            if candidate and candidate in files:
                return Target(package.key, candidate)
        return self._directory(package, path)

    def _directory(self, package: PackageFiles, path: str) -> Target | None:
        manifest = package.manifests.get(posixpath.join(path, "package.json") if path else "package.json")
        main = manifest.get("main") if isinstance(manifest, dict) else None
        if isinstance(main, str) and main:
            start = posixpath.normpath(posixpath.join(path, main))
            for candidate in (start, start + ".js", start + ".json", start + "/index.js", start + "/index.json"):
                if candidate in package.files:
                    return Target(package.key, candidate)
        for candidate in ("index.js", "index.json"):
            full = posixpath.join(path, candidate) if path else candidate
            if full in package.files:
                return Target(package.key, full)
        return None

    def _main(self, package: PackageFiles, kind: Kind) -> Target | None:
        if kind == "require":
            return self._directory(package, "")
        return self._directory(package, "")  # ES modules' legacy main resolution tries the same names

    def _exports(self, package: PackageFiles, exports: Any, subpath: str, kind: Kind) -> Target | Failure:
        if isinstance(exports, str | list) or (
            isinstance(exports, dict) and exports and not any(str(k).startswith(".") for k in exports)
        ):
            exports = {".": exports}
        if not isinstance(exports, dict):
            return self._not_exported(package, subpath)
        target = _match(exports, subpath)
        if target is None:
            return self._not_exported(package, subpath)
        value, star = target
        resolved = _target(value, star, _CONDITIONS[kind])
        if resolved is None:
            return self._not_exported(package, subpath)
        path = posixpath.normpath(resolved[2:]) if resolved.startswith("./") else None
        if path is None or path.startswith("..") or path not in package.files:
            shown = package.base + "/" + (resolved[2:] if resolved.startswith("./") else resolved)
            return Failure("MODULE_NOT_FOUND", f"Cannot find module '{shown}'")
        return Target(package.key, path)

    def _imports(self, here: PackageFiles, specifier: str, kind: Kind, path: str) -> Target | Failure:
        imports = here.manifest.get("imports")
        target = _match(imports, specifier) if isinstance(imports, dict) else None
        resolved = None if target is None else _target(target[0], target[1], _CONDITIONS[kind])
        if resolved is None:
            return Failure(
                "ERR_PACKAGE_IMPORT_NOT_DEFINED",
                f'Package import specifier "{specifier}" is not defined in package {here.base}/package.json '
                f"imported from {here.base}/{path}",
            )
        if not resolved.startswith("./"):
            return self.resolve(resolved, kind, here.key, path)
        file = posixpath.normpath(resolved[2:])
        if file not in here.files:
            return Failure("MODULE_NOT_FOUND", f"Cannot find module '{here.base}/{file}'")
        return Target(here.key, file)

    @staticmethod
    def _not_exported(package: PackageFiles, subpath: str) -> Failure:
        shown = "" if subpath == "." else subpath
        what = (
            'No "exports" main defined'
            if subpath == "."
            else f"Package subpath '{shown}' is not defined by \"exports\""
        )
        return Failure("ERR_PACKAGE_PATH_NOT_EXPORTED", f"{what} in {package.base}/package.json")


def _match(table: dict[str, Any], key: str) -> tuple[Any, str | None] | None:
    """The entry of an exports/imports table for ``key``: exact, else the longest pattern with one ``*``."""
    if key in table and "*" not in key:
        return table[key], None
    best: tuple[str, str] | None = None
    for pattern in table:
        star = pattern.find("*")
        if star < 0 or pattern.find("*", star + 1) >= 0:
            continue
        prefix, suffix = pattern[:star], pattern[star + 1 :]
        fits = key.startswith(prefix) and key != prefix and key.endswith(suffix) and len(key) >= len(pattern)
        if fits and (best is None or len(prefix) > len(best[0].split("*")[0])):
            best = (pattern, key[len(prefix) : len(key) - len(suffix)])
    if best is None:
        return None
    return table[best[0]], best[1]


def _target(value: Any, star: str | None, conditions: frozenset[str]) -> str | None:
    """A target string under ``conditions`` (the first condition the package lists that applies), or None."""
    if isinstance(value, str):
        return value if star is None else value.replace("*", star)
    if isinstance(value, list):
        for item in value:
            found = _target(item, star, conditions)
            if found is not None:
                return found
        return None
    if isinstance(value, dict):
        for condition, inner in value.items():
            if condition in conditions:
                found = _target(inner, star, conditions)
                if found is not None:
                    return found
        return None
    return None


def _missing(specifier: str, kind: Kind, importer: str) -> Failure:
    if kind == "import":
        return Failure("ERR_MODULE_NOT_FOUND", f"Cannot find module '{specifier}' imported from {importer}")
    return Failure("MODULE_NOT_FOUND", f"Cannot find module '{specifier}'\nRequire stack:\n- {importer}")
