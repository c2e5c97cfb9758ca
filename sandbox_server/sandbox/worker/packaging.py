"""A job's npm packages: the modules its code names, read from the packages folder and checked (see
:mod:`sandbox_server.packages.loading`), with the Node built-ins and web APIs those modules use.

A run request names the folder and the digest of the lock the server started with (``"packages": {"dir",
"lock"}``). Code that names no package with a string literal costs nothing here beyond one regular expression.
The folder's packages are opened once per worker process and kept, so each file is read and checked once.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import js_runtime
from sandbox_server.errors import PackageError
from sandbox_server.packages.loading import PackageSet, code_specifiers
from sandbox_server.packages.nodepath import BUILTINS
from sandbox_server.sandbox.outcome import ErrorInfo
from sandbox_server.sandbox.worker.isolate import Isolate
from sandbox_server.sandbox.worker.options import web_needs

__all__ = ["JobPackages", "job_packages"]

logger = logging.getLogger(__name__)

_NODE_MODULES = js_runtime.node_modules()
_NODE_GLOBALS = {name: module.id for module in _NODE_MODULES.values() for name in module.globals}
_GLOBAL_WORD = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(_NODE_GLOBALS))) + r")\b")
# A name that is neither a built-in nor relative: the code may name a package.
_MAY_NAME_PACKAGE = re.compile(r"""\b(?:require|__import|__importStatic)\s*\(\s*(['"`])(?!node:|\.|/)""")
_COMPUTED = re.compile(r"""\b(?:require|__import|__importStatic)\s*\(\s*(?!['"`])""")

_sets: dict[tuple[str, str], PackageSet] = {}
_needs: dict[tuple[str, int, int], tuple[set[str], set[str]]] = {}


@dataclass(slots=True)
class JobPackages:
    """What a job's run gets for its packages.

    Attributes:
        text: What the worker hands the runtime (its ``packages`` request) before the run.
        node: Sources of the Node modules the sent package modules use, by id.
        web: The web modules they use.
    """

    text: str
    node: dict[str, str] = field(default_factory=dict)
    web: set[str] = field(default_factory=set)

    def options(self, options: str) -> str:
        """The run's options text, saying that the packages the worker handed over are this run's."""
        return options[:-1] + ',"packages":true}'

    async def offer(self, isolate: Isolate) -> None:
        """Hand the packages to the runtime, as one string it slices (nothing escaped or parsed as JSON)."""
        await isolate.request("packages", self.text)


def _package_set(value: Any) -> PackageSet | None:
    if not isinstance(value, dict) or not isinstance(value.get("dir"), str) or not isinstance(value.get("lock"), str):
        return None
    key = (value["dir"], value["lock"])
    found = _sets.get(key)
    if found is None:
        found = PackageSet(Path(key[0]), key[1])
        _sets.clear()  # one lock at a time: a new digest means the server restarted with a new one
        _sets[key] = found
    return found


def job_packages(request: dict[str, Any], code: str) -> JobPackages | ErrorInfo | None:
    """The packages of a job whose (rewritten) code is ``code``; None when it names none; an error to fail the run
    with when a package cannot be read or was changed after it was added."""
    value = request.get("packages")
    if value is None or (_MAY_NAME_PACKAGE.search(code) is None and _COMPUTED.search(code) is None):
        return None
    try:
        packages = _package_set(value)
        if packages is None:
            return None
        named = code_specifiers(code)
        specifiers = [(kind, name) for kind, name in named if name.removeprefix("node:") not in BUILTINS]
        payload = packages.payload(specifiers) if specifiers else None
    except PackageError as exc:
        logger.warning("packages not loaded: %s", exc)
        error: ErrorInfo = {
            "kind": "runtime",
            "name": type(exc).__name__,
            "message": str(exc),
            "line": None,
            "column": None,
            "stack": None,
        }
        return error
    if payload is None:
        # A computed name only: the runtime can still say which packages exist.
        empty = {"available": packages.available, "entries": {}, "failures": {}, "modules": []}
        return JobPackages(json.dumps(empty) + "\n")
    node_ids = {name for name in payload.builtins if name in _NODE_MODULES}
    web: set[str] = set()
    for source in payload.sources:
        # A stored file's text is one string object for the worker's life, whose hash Python keeps.
        node_names, web_names = _source_needs((packages.digest, hash(source), len(source)), source)
        node_ids |= node_names
        web |= web_names
    node_ids |= _with_requirements(node_ids)
    return JobPackages(payload.text, {module_id: _NODE_MODULES[module_id].source for module_id in node_ids}, web)


def _source_needs(key: tuple[str, int, int], source: str) -> tuple[set[str], set[str]]:
    cached = _needs.get(key)
    if cached is None:
        node = {_NODE_GLOBALS[name] for name in _GLOBAL_WORD.findall(source)}
        cached = (node, web_needs(source))
        _needs[key] = cached
    return cached


def _with_requirements(ids: set[str]) -> set[str]:
    wanted = set(ids)
    pending = list(ids)
    while pending:
        for needed in _NODE_MODULES[pending.pop()].requires:
            if needed not in wanted:
                wanted.add(needed)
                pending.append(needed)
    return wanted
