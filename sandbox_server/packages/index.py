"""The index of one stored package: a digest for every file, and for each JavaScript file how the isolate runs it.

Per file: its SHA-256. Per JavaScript file (``.js``, ``.mjs``, ``.cjs``): its format as Node 20 decides it (``.mjs``
is an ES module, ``.cjs`` CommonJS, ``.js`` follows the ``type`` of the nearest ``package.json``), the modules it
names with string literals (``require('x')``, ``import``, ``export ... from``, ``import('x')``), which the worker
uses to send a call only the files it can reach, and for ES modules (and CommonJS files with ``import()``) the
digest of the form the isolate runs, kept under ``derived/`` (:mod:`.esm`; also every file with characters
outside ASCII, escaped, see :func:`ascii_source`).
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

import tree_sitter

from sandbox_server.packages import esm
from sandbox_server.packages.integrity import file_digest

__all__ = ["INDEX_VERSION", "JS_EXTENSIONS", "Indexed", "ModuleInfo", "ascii_source", "build_index", "module_type"]

JS_EXTENSIONS = (".js", ".mjs", ".cjs")
INDEX_VERSION = 1
"""Changes whenever what the index holds or how derived files are made changes: an older index is made again."""
_REQUIRE = re.compile(r"""\brequire\s*\(\s*(?:'([^'\\\n]+)'|"([^"\\\n]+)"|`([^`\\$\n]+)`)\s*\)""")
_DYNAMIC_IMPORT = re.compile(rb"\bimport\s*\(")


@dataclass(frozen=True, slots=True)
class ModuleInfo:
    """How the isolate runs one JavaScript file.

    Attributes:
        format: ``cjs`` or ``esm``.
        requires: Specifiers its static ``require``/``import`` name, in order.
        dynamic: Specifiers its ``import('...')`` calls name.
        derived: Digest of the runnable form under ``derived/`` (ES modules, and CommonJS with ``import()``).
        error: Why it cannot be loaded, if it cannot.
    """

    format: str
    requires: list[str] = field(default_factory=list)
    dynamic: list[str] = field(default_factory=list)
    derived: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {"format": self.format, "requires": self.requires}
        if self.dynamic:
            value["dynamic"] = self.dynamic
        if self.derived is not None:
            value["derived"] = self.derived
        if self.error is not None:
            value["error"] = self.error
        return value

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ModuleInfo:
        return cls(
            str(value["format"]),
            [str(item) for item in value.get("requires", [])],
            [str(item) for item in value.get("dynamic", [])],
            value.get("derived"),
            value.get("error"),
        )


@dataclass(frozen=True, slots=True)
class Indexed:
    """A package's index and the derived files to store beside it."""

    text: str
    derived: dict[str, bytes]


def module_type(path: str, manifests: dict[str, Any]) -> str:
    """``module`` or ``commonjs``: the ``type`` of the nearest ``package.json`` above ``path`` in the package."""
    folder = posixpath.dirname(path)
    while True:
        manifest = manifests.get(posixpath.join(folder, "package.json") if folder else "package.json")
        if isinstance(manifest, dict):
            return "module" if manifest.get("type") == "module" else "commonjs"
        if not folder:
            return "commonjs"
        folder = posixpath.dirname(folder)


def _manifests(files: dict[str, bytes]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for path, content in files.items():
        if posixpath.basename(path) == "package.json":
            try:
                found[path] = json.loads(content)
            except ValueError:
                found[path] = None
    return found


_NON_ASCII = re.compile(r"(\\*)([^\x00-\x7f])")


def ascii_source(text: str) -> str:
    """``text`` with each character outside ASCII written as its ``\\u`` escape.

    V8 takes ASCII text as it is, and copies any other into a two-byte string first (about 15 ms for lodash's
    546 kB, a third of loading it). Inside string literals, regular expressions and identifiers an escape means the
    same character; in a comment it changes nothing. A backslash before the character (an identity escape, which
    also means the character) is taken into the escape.
    """
    if text.isascii():
        return text

    def escaped(match: re.Match[str]) -> str:
        slashes, char = match.group(1), match.group(2)
        if len(slashes) % 2 == 1:
            slashes = slashes[:-1]
        units = char.encode("utf-16-be", "surrogatepass")
        return slashes + "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))

    return _NON_ASCII.sub(escaped, text)


def _cjs(text: str, data: bytes) -> tuple[ModuleInfo, bytes | None]:
    requires = list(dict.fromkeys(next(group for group in m.groups() if group) for m in _REQUIRE.finditer(text)))
    nodes: list[tree_sitter.Node] = []
    dynamic: list[str] = []
    if _DYNAMIC_IMPORT.search(data) is not None:
        root = esm._PARSER.parse(data).root_node
        dynamic = esm.dynamic_specifiers(root, data)
        nodes = tree_sitter.QueryCursor(esm._DYNAMIC_IMPORT).captures(root).get("import", [])
    if not nodes and text.isascii():
        return ModuleInfo("cjs", requires), None
    runnable = esm._apply(data, [(node.start_byte, node.end_byte, b"__di$") for node in nodes]) if nodes else text
    derived = ascii_source(runnable).encode("ascii")
    return ModuleInfo("cjs", requires, dynamic, file_digest(derived)), derived


def build_index(files: dict[str, bytes]) -> Indexed:
    """The index of a package's files (paths inside the package) and the derived files it names."""
    manifests = _manifests(files)
    modules: dict[str, dict[str, Any]] = {}
    derived: dict[str, bytes] = {}
    for path, content in sorted(files.items()):
        if not path.endswith(JS_EXTENSIONS):
            continue
        if path.endswith(".mjs") or (path.endswith(".js") and module_type(path, manifests) == "module"):
            text = content.decode("utf-8", "replace")
            converted = esm.convert(text)
            body = ascii_source(converted.body).encode("ascii")
            if converted.error is None:
                derived[path] = body
            info = ModuleInfo(
                "esm",
                converted.imports,
                converted.dynamic,
                file_digest(body) if converted.error is None else None,
                converted.error,
            )
        else:
            info, runnable = _cjs(content.decode("utf-8", "replace"), content)
            if runnable is not None:
                derived[path] = runnable
        modules[path] = info.to_json()
    index = {
        "version": INDEX_VERSION,
        "files": {path: file_digest(content) for path, content in sorted(files.items())},
        "modules": modules,
    }
    return Indexed(json.dumps(index, separators=(",", ":"), sort_keys=True), derived)
