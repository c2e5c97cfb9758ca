"""What to do instead, for code written for a browser, another runtime or a file system that this sandbox is not.

Node's pure built-ins run here (``require``, ``import``, ``Buffer``, ``process``, ``fs`` over the data folder), so
most Node habits simply work; what remains are names that exist elsewhere and not here (the DOM, ``fetch``), a
module used without loading it, and the global ``files`` used without the argument that fills it. V8's own message
("fetch is not defined") says what failed, not what to use; the hint says that. Hints are chosen from the error's
name and message, never by running anything, and every hint about data names the data folder's ways in
(``files``, Node's ``fs``) when the server has one.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["hint_for"]

_NO_NETWORK = "This sandbox has no network: fetch the data elsewhere and pass it in the `input` argument."
_NO_NETWORK_FOLDER = (
    "This sandbox has no network. To read a file of the data folder, name it in the `files` argument and read "
    "`files['sales.csv'].text`, or use Node's fs (`require('fs').readFileSync('sales.csv', 'utf8')`); other data "
    "goes in `input`."
)
_NOT_A_BROWSER = (
    "This sandbox is not a browser: there is no DOM or storage; compute with plain JavaScript and print with "
    "console.log."
)
_FILES_WITHOUT_ARGUMENT = (
    "The global `files` exists only when the call names files: pass them in the `files` argument (for example "
    '`"files": ["sales.csv"]` or `"files": ["*.csv"]`) and read `files[\'sales.csv\'].rows`, or read them with '
    "Node's fs (`require('fs').readFileSync('sales.csv', 'utf8')`)."
)
_FILES_NO_FOLDER = (
    "There is no global `files`: this server shares no data folder. Pass the data in the `input` argument and read "
    "it from `input`."
)
_OTHER_RUNTIME = (
    "This sandbox is not {name}: use plain JavaScript, the web APIs and Node's built-ins (require('fs'), Buffer, "
    "process.argv); data comes in `input`."
)

_UNDEFINED_NAMES: dict[str, str] = {
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
    "Deno": _OTHER_RUNTIME.format(name="Deno"),
    "Bun": _OTHER_RUNTIME.format(name="Bun"),
}
_FOLDER_NAMES: dict[str, str] = {
    "fetch": _NO_NETWORK_FOLDER,
    "XMLHttpRequest": _NO_NETWORK_FOLDER,
}
# Node's modules that models use as if they were globals, with the line that loads each.
_MODULE_NAMES = {
    "fs": "const fs = require('fs')",
    "fsPromises": "const fsPromises = require('fs/promises')",
    "path": "const path = require('path')",
    "util": "const util = require('util')",
    "events": "const events = require('events')",
    "EventEmitter": "const EventEmitter = require('events')",
    "assert": "const assert = require('assert')",
    "querystring": "const querystring = require('querystring')",
    "StringDecoder": "const { StringDecoder } = require('string_decoder')",
    "createHash": "const { createHash } = require('crypto')",
    "createHmac": "const { createHmac } = require('crypto')",
    "randomBytes": "const { randomBytes } = require('crypto')",
}
_TYPE_NAMES = frozenset({"number", "string", "boolean", "any", "unknown", "never", "bigint", "symbol", "object"})
_TYPE_AS_VALUE = (
    "`{name}` is a TypeScript type, but this code ran as JavaScript: with no other TypeScript in it, type arguments "
    "such as `new Set<{name}>(xs)` or `f<{name}>(x)` read as comparisons. Drop the type arguments, or make the code "
    "TypeScript by other signs (`const s: Set<{name}> = new Set<{name}>(xs)`)."
)
_NOT_DEFINED = re.compile(r"^(\S+) is not defined$")


def hint_for(error: dict[str, Any], code: str, *, data_folder: bool = False, upstream: bool = False) -> str | None:
    """A sentence telling the model what to use instead, when ``error`` comes from such a habit.

    Args:
        error: The outcome's error object.
        code: The code that ran (unused by the rules in force; kept for rules that need it).
        data_folder: Whether the server shares a data folder (files are then read through ``files`` or fs).
        upstream: Whether other MCP servers are configured (their tools are then ``execute_js_with_tools``'s).
    """
    del code
    name, message = error.get("name"), error.get("message")
    if not isinstance(message, str) or name != "ReferenceError":
        return None
    match = _NOT_DEFINED.match(message)
    if match is None:
        return None
    missing = match.group(1)
    if missing in _TYPE_NAMES:
        return _TYPE_AS_VALUE.format(name=missing)
    if missing in ("tools", "ToolError"):
        if upstream:
            return (
                "`tools` (the other MCP servers' tools) exists only in execute_js_with_tools: run this code with "
                "that tool instead of execute_js."
            )
        return "this server has no other MCP servers configured, so there is no `tools` to call."
    if missing == "files":
        return _FILES_WITHOUT_ARGUMENT if data_folder else _FILES_NO_FOLDER
    if missing in _MODULE_NAMES:
        return f"`{missing}` is a Node module, not a global: load it first with `{_MODULE_NAMES[missing]}`."
    if data_folder and missing in _FOLDER_NAMES:
        return _FOLDER_NAMES[missing]
    return _UNDEFINED_NAMES.get(missing)
