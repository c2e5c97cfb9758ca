"""What a job's run is told besides its code: the output cap, fresh entropy, the last statement, the web modules the
code may use, and whether to follow iterators."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

import js_runtime
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.source import Statement

__all__ = [
    "JournalOptions",
    "completion_hint",
    "journal_options",
    "node_preload",
    "node_sources",
    "run_options",
    "tracks_iterators",
    "web_needs",
    "web_preload",
    "web_sources",
]


_HEX = re.compile(r"[0-9a-f]+")
MAX_JOURNAL_ITEMS = 40_000
"""Most numbers of each of a journal's lists a run request may carry (the runtime keeps 20,000 pairs and events)."""


class JournalOptions(NamedTuple):
    """What a run request's ``journal`` says: the seeds, the prefix to replay, and the heap reading to give."""

    seed: str
    spec: dict[str, Any]
    memory: dict[str, int] | None


def journal_options(value: Any) -> JournalOptions | None:
    """The journal of a run request (``seed``: 64 hex digits, ``random``: 32, ``clock`` and ``events``: lists of
    integers, optionally ``memory``), or None when it is not one."""
    if not isinstance(value, dict):
        return None
    seed, random = value.get("seed"), value.get("random")
    if not (isinstance(seed, str) and len(seed) == 64 and _HEX.fullmatch(seed)):
        return None
    if not (isinstance(random, str) and len(random) == 32 and _HEX.fullmatch(random)):
        return None
    lists = []
    for name in ("clock", "events"):
        items = value.get(name, [])
        if not isinstance(items, list) or len(items) > MAX_JOURNAL_ITEMS:
            return None
        if not all(type(item) is int for item in items):
            return None
        lists.append(items)
    memory = value.get("memory")
    if memory is not None and not (
        isinstance(memory, dict) and all(type(memory.get(key)) is int for key in ("used", "total"))
    ):
        return None
    reading = None if memory is None else {"used": memory["used"], "total": memory["total"]}
    return JournalOptions(seed, {"random": random, "clock": lists[0], "events": lists[1]}, reading)


def run_options(
    limits: SandboxLimits,
    *,
    seed: bool | str = False,
    journal: dict[str, Any] | None = None,
    completion: list[Any] | None = None,
    modules: dict[str, str] | None = None,
    web_preload: list[str] | None = None,
    node_modules: dict[str, str] | None = None,
    node_preload: list[str] | None = None,
    memory: dict[str, int] | None = None,
    data_folder: bool = False,
    track_iterators: bool = False,
    tools: Any = None,
    session: bool = False,
    charts: bool = False,
    cell_names: Sequence[str] = (),
    host: bool = False,
) -> str:
    """The options of one run.

    Args:
        limits: The output cap comes from them.
        seed: Add 32 bytes of fresh operating-system entropy for the web crypto API, or these (64 hex digits: a
            journaled run draws the same bytes each time it runs).
        journal: Record the run's clock readings and order of events (``js_runtime/journal.js``), replaying the
            ``clock`` and ``events`` it holds first; its ``random`` (32 hex digits) seeds ``Math.random``.
        completion: The last statement as ``[start, end, kind]`` in UTF-16 units, for a REPL-like result.
        modules: Sources of the web modules the code may use, by id.
        web_preload: Web modules to compile before the code runs (see :func:`web_preload`).
        node_modules: Sources of the Node modules the code may use, by id; given (even empty), the run also has
            ``require``, ``module`` and ``exports``.
        node_preload: Node modules to load before the code runs (see :func:`node_preload`).
        memory: The isolate's heap before the run (``used``, ``total`` bytes), for ``process.memoryUsage()``.
        data_folder: Whether the server shares a data folder (Node's fs reads from it).
        track_iterators: Follow Map and Set iterators from the start (see :func:`tracks_iterators`).
        tools: What the global ``tools`` lists (see ``js_runtime/tools.js``); None for no such global.
        charts: ``display()`` takes charts and SVG (the server can render them).
        session: The run is a session's: a call that names no files keeps the global ``files`` of an earlier one.
        cell_names: The top-level names of a session cell (see :mod:`sandbox_server.sandbox.source.cells`): the
            run declares them as global variables (``var``) before the code runs.
        host: The run may call the host (``js_runtime/host.js``); the worker then answers its calls (a bridge).
    """
    options: dict[str, Any] = {"outputCap": limits.output_cap_bytes}
    if isinstance(seed, str):
        options["seed"] = seed
    elif seed:
        options["seed"] = os.urandom(32).hex()
    if journal is not None:
        options["journal"] = journal
    if completion is not None:
        options["completion"] = completion
    if modules:
        options["modules"] = modules
        if web_preload:
            options["webPreload"] = web_preload
    if node_modules is not None:
        options["nodeModules"] = node_modules
        if node_preload:
            options["nodePreload"] = node_preload
    if memory is not None:
        options["memory"] = memory
    if data_folder:
        options["dataFolder"] = True
    if track_iterators:
        options["trackIterators"] = True
    if isinstance(tools, dict):
        options["tools"] = tools
    if session:
        options["session"] = True
    if charts:
        options["charts"] = True
    if cell_names:
        options["cellNames"] = list(cell_names)
    if host:
        options["host"] = True
    return json.dumps(options)


_WEB_MODULES = js_runtime.web_modules()
_WEB_NAMES = {name: module for module, (names, _source) in _WEB_MODULES.items() for name in names}
_WEB_NAME = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _WEB_NAMES), key=len, reverse=True)) + r")\b")
# Ways to reach a global without writing its name; code that uses one gets every web module.
_INDIRECT_GLOBAL = re.compile(r"\b(?:globalThis|self|window|eval|Function|Reflect|this)\b|getOwnProperty")
_ALL_WEB_SOURCES = js_runtime.web_payload()
_WEB_SUPPORT = "domexception"
"""The module others load their errors from."""


def web_preload(code: str, also: Collection[str] = ()) -> list[str]:
    """The web modules ``code`` names, with those in ``also`` (what its preloaded Node modules use), sorted: the run
    compiles them before the code runs, so that they capture the engine's built-ins before the code can change
    them. Empty when the code names none."""
    used = {_WEB_NAMES[name] for name in _WEB_NAME.findall(code)} | set(also)
    if used:
        used.add(_WEB_SUPPORT)
    return sorted(module for module in used if module in _WEB_MODULES)


def web_sources(code: str, also: Collection[str] = ()) -> dict[str, str]:
    """The web modules ``code`` may use, by id: those whose globals it names (all of them when it may reach
    globals without naming them), and those in ``also`` (the ones its Node modules use), with the shared Node
    modules they load (``js_runtime.web_payload``). The runtime compiles one only when the code first touches it;
    sending only these spares every other call the cost of holding their sources."""
    if _INDIRECT_GLOBAL.search(code) is not None:
        return dict(_ALL_WEB_SOURCES)
    used = {_WEB_NAMES[name] for name in _WEB_NAME.findall(code)} | set(also)
    if not used:
        return {}
    used.add(_WEB_SUPPORT)
    return js_runtime.web_payload(sorted(used))


_NODE_MODULES = js_runtime.node_modules()
_NODE_GLOBALS = {name: module.id for module in _NODE_MODULES.values() for name in module.globals}
# A module named in a require, an import or an export-from: `require('node:crypto')`, `from "path"`, `import('fs')`.
_NODE_SPECIFIER = re.compile(
    r"""(?:\b(?:require|__import|__importStatic|import)\s*\(|\bfrom|\bimport)\s*(['"`])(?:node:)?([A-Za-z_][\w./-]*)\1"""
)
# Words that make a run offer require (and module, exports, __dirname, __filename), whatever they name.
_NODE_WORDS = re.compile(r"\b(?:require|module|exports|import|export|__import|__importStatic|__dirname|__filename)\b")
# A require or import whose argument is not a string literal may name any module.
_DYNAMIC_SPECIFIER = re.compile(r"""\b(?:require|import|__import|__importStatic)\s*\(\s*(?!['"`])""")


def _web_needs(source: str) -> set[str]:
    return {_WEB_NAMES[name] for name in _WEB_NAME.findall(source)}


def web_needs(source: str) -> set[str]:
    """The web modules whose globals ``source`` names (for the sources of npm packages a job loads)."""
    return _web_needs(source)


_NODE_WEB_NEEDS = {module_id: _web_needs(module.source) for module_id, module in _NODE_MODULES.items()}


def node_sources(code: str) -> dict[str, str] | None:
    """The Node modules ``code`` may use, by id, with the modules they load; None when the code names no module,
    no module global (``Buffer``, ``process``) and no ``require``, ``module`` or ``exports`` (then the run offers
    none of them). All of them when the code may reach a module without naming it."""
    if _INDIRECT_GLOBAL.search(code) is not None or _DYNAMIC_SPECIFIER.search(code) is not None:
        return {module_id: module.source for module_id, module in _NODE_MODULES.items()}
    wanted = node_preload(code)
    if not wanted and _NODE_WORDS.search(code) is None:
        return None
    return {module_id: _NODE_MODULES[module_id].source for module_id in wanted}


def node_preload(code: str) -> list[str]:
    """The Node modules ``code`` names (in a require, an import or by a global such as ``Buffer``) with the modules
    they load, sorted: the run loads them before the code runs, so that they capture the engine's built-ins before
    the code can change them."""
    wanted = {match.group(2).split("/", 1)[0] for match in _NODE_SPECIFIER.finditer(code)}
    wanted |= {module_id for name, module_id in _NODE_GLOBALS.items() if re.search(rf"\b{name}\b", code)}
    wanted &= set(_NODE_MODULES)
    pending = list(wanted)
    while pending:
        for needed in _NODE_MODULES[pending.pop()].requires:
            if needed not in wanted:
                wanted.add(needed)
                pending.append(needed)
    return sorted(wanted)


def web_sources_for_node(node_modules: Collection[str]) -> set[str]:
    """The web modules the given Node modules (ids) use."""
    return set().union(*(_NODE_WEB_NEEDS[module_id] for module_id in node_modules)) if node_modules else set()


_MAKES_ITERATORS = re.compile(r"\.(?:keys|values|entries)\s*\(|Symbol\.iterator")


def tracks_iterators(code: str) -> bool:
    """Whether the runtime must follow Map and Set iterators from the start: the code may print one (it uses
    console) while a loop iterates it (it makes iterators). Otherwise iteration keeps V8's fast paths."""
    return "console" in code and _MAKES_ITERATORS.search(code) is not None


def utf16_index(code: str, index: int) -> int:
    return index if code.isascii() else len(code[:index].encode("utf-16-le", "surrogatepass")) // 2


def completion_hint(code: str, statement: Statement | None) -> list[Any] | None:
    if statement is None or statement.kind == "other":
        return None
    kind = "object" if statement.kind == "object_literal_block" else "expression"
    return [utf16_index(code, statement.start), utf16_index(code, statement.end), kind]
