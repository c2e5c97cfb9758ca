"""What a job's run is told besides its code: the output cap, fresh entropy, the last statement, the web modules the
code may use, and whether to follow iterators."""

from __future__ import annotations

import json
import os
import re
from typing import Any

import js_runtime
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.source import Statement

__all__ = ["completion_hint", "run_options", "tracks_iterators", "web_sources"]


def run_options(
    limits: SandboxLimits,
    *,
    seed: bool = False,
    completion: list[Any] | None = None,
    modules: dict[str, str] | None = None,
    track_iterators: bool = False,
) -> str:
    """The options of one run.

    Args:
        limits: The output cap comes from them.
        seed: Add 32 bytes of fresh operating-system entropy for the web crypto API.
        completion: The last statement as ``[start, end, kind]`` in UTF-16 units, for a REPL-like result.
        modules: Sources of the web modules the code may use, by id.
        track_iterators: Follow Map and Set iterators from the start (see :func:`tracks_iterators`).
    """
    options: dict[str, Any] = {"outputCap": limits.output_cap_bytes}
    if seed:
        options["seed"] = os.urandom(32).hex()
    if completion is not None:
        options["completion"] = completion
    if modules:
        options["modules"] = modules
    if track_iterators:
        options["trackIterators"] = True
    return json.dumps(options)


_WEB_MODULES = js_runtime.web_modules()
_WEB_NAMES = {name: module for module, (names, _source) in _WEB_MODULES.items() for name in names}
_WEB_NAME = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, _WEB_NAMES), key=len, reverse=True)) + r")\b")
# Ways to reach a global without writing its name; code that uses one gets every web module.
_INDIRECT_GLOBAL = re.compile(r"\b(?:globalThis|self|window|eval|Function|Reflect|this)\b|getOwnProperty")
_WEB_SUPPORT = "domexception"
"""The module others load their errors from."""


def web_sources(code: str) -> dict[str, str]:
    """The web modules ``code`` may use, by id: those whose globals it names (all of them when it may reach
    globals without naming them). The runtime compiles one only when the code first touches it; sending only
    these spares every other call the cost of holding their sources."""
    if _INDIRECT_GLOBAL.search(code) is not None:
        return {module: source for module, (_names, source) in _WEB_MODULES.items()}
    used = {_WEB_NAMES[name] for name in _WEB_NAME.findall(code)}
    if not used:
        return {}
    used.add(_WEB_SUPPORT)
    return {module: _WEB_MODULES[module][1] for module in used if module in _WEB_MODULES}


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
