"""What to do instead, for code written for Node, a browser or a module system that this sandbox is not.

Models often reach for ``require``, ``process.stdout.write``, ``Buffer`` or ``fetch`` out of habit. V8's own
message ("require is not defined") says what failed, not what to use; the hint says that. Hints are chosen
from the error's name and message (and, for imports, the code), never by running anything.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["hint_for"]

_NO_MODULES = (
    "This sandbox has no modules or packages: write the code inline. Built-ins cover most needs (Intl, "
    "Temporal, BigInt, TextEncoder/TextDecoder, atob/btoa, URL, crypto.subtle.digest), and data comes in `input`."
)
_NO_FILES = "This sandbox has no file system: pass the data in the `input` argument and read it from `input`."
_NO_NETWORK = "This sandbox has no network: fetch the data elsewhere and pass it in the `input` argument."
_NOT_A_BROWSER = (
    "This sandbox is not a browser: there is no DOM or storage; compute with plain JavaScript and print with "
    "console.log."
)

_UNDEFINED_NAMES: dict[str, str] = {
    "require": _NO_MODULES,
    "module": _NO_MODULES,
    "exports": _NO_MODULES,
    "process": (
        "This sandbox is not Node: there is no `process`. Print with console.log (not process.stdout.write), "
        "read data from `input` (not process.argv, process.env or stdin), time with performance.now() (not "
        "process.hrtime), and let the code end by itself (no process.exit); the last expression is the result."
    ),
    "Buffer": (
        "There is no Buffer: use TextEncoder/TextDecoder for text and bytes, atob/btoa for base64, and "
        "Uint8Array for binary data."
    ),
    "__dirname": _NO_FILES,
    "__filename": _NO_FILES,
    "fetch": _NO_NETWORK,
    "XMLHttpRequest": _NO_NETWORK,
    "WebSocket": _NO_NETWORK,
    "EventSource": _NO_NETWORK,
    "window": _NOT_A_BROWSER,
    "document": _NOT_A_BROWSER,
    "localStorage": _NOT_A_BROWSER,
    "sessionStorage": _NOT_A_BROWSER,
    "navigator": _NOT_A_BROWSER,
    "alert": _NOT_A_BROWSER,
    "Deno": "This sandbox is not Deno: use plain JavaScript and the web APIs it lists; data comes in `input`.",
    "Bun": "This sandbox is not Bun: use plain JavaScript and the web APIs it lists; data comes in `input`.",
}
_TYPE_NAMES = frozenset({"number", "string", "boolean", "any", "unknown", "never", "bigint", "symbol", "object"})
_TYPE_AS_VALUE = (
    "`{name}` is a TypeScript type, but this code ran as JavaScript: with no other TypeScript in it, type arguments "
    "such as `new Set<{name}>(xs)` or `f<{name}>(x)` read as comparisons. Drop the type arguments, or make the code "
    "TypeScript by other signs (`const s: Set<{name}> = new Set<{name}>(xs)`)."
)
_NOT_DEFINED = re.compile(r"^(\S+) is not defined$")
# Each of these runs on the server's event loop over code of up to max_code_bytes, so each must take time linear in
# the code's length: no pattern may let a repeated part of it (here white space) be tried from many starts.
# (`^\s*` in multiline mode would rescan every run of blank lines from each of its lines: quadratic.)
_DYNAMIC_IMPORT = re.compile(r"\bimport[ \t\r\n]*\(")
_STATIC_IMPORT = re.compile(r"^[ \t]*import\b(?![ \t]*\()", re.MULTILINE)


_DATA_FOLDER_FILES = (
    "This sandbox has no file system, but the server has a data folder: name its files in the `files` argument "
    "and read them from the global `files` (for example files['data.csv'].rows), or pass data in `input`."
)


def hint_for(error: dict[str, Any], code: str, *, data_folder: bool = False) -> str | None:
    """A sentence telling the model what to use instead, when ``error`` comes from a Node or browser habit.

    Args:
        error: The outcome's error object.
        code: The code that ran.
        data_folder: Whether the server offers a data folder (files are then read through ``files``).
    """
    name, message = error.get("name"), error.get("message")
    if not isinstance(message, str):
        return None
    if name == "ReferenceError":
        match = _NOT_DEFINED.match(message)
        if match is not None and match.group(1) in _TYPE_NAMES:
            return _TYPE_AS_VALUE.format(name=match.group(1))
        hint = None if match is None else _UNDEFINED_NAMES.get(match.group(1))
        return _DATA_FOLDER_FILES if data_folder and hint == _NO_FILES else hint
    if name == "SyntaxError":
        if "import statement outside a module" in message or (
            "import" in message and _STATIC_IMPORT.search(code) is not None
        ):
            return _NO_MODULES
        if message == "Unexpected token 'export'":
            return "There are no modules here: drop `export`; the last expression is the result."
        return None
    if message == "Not supported" and _DYNAMIC_IMPORT.search(code) is not None:
        return _NO_MODULES
    return None
