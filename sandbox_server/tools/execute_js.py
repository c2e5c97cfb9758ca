"""The ``execute_js`` tool: run model-written JavaScript in a fresh V8 isolate and report what it computed."""

from __future__ import annotations

from typing import Any

from sandbox_server.charts import Renderer
from sandbox_server.data.files import FORMATS
from sandbox_server.data.folder import DataFolder
from sandbox_server.packages.catalog import Catalog
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec
from sandbox_server.sandbox import WorkerPool
from sandbox_server.sessions import SessionManager
from sandbox_server.settings import Settings
from sandbox_server.tools.rendering import fenced, render_outcome
from sandbox_server.tools.runs import PROGRESS_INTERVAL_S, js_handler

__all__ = [
    "INSTRUCTION",
    "OUTPUT_SCHEMA",
    "PROGRESS_INTERVAL_S",
    "execute_js_tool",
    "fenced",
    "input_schema",
    "render_outcome",
    "structure_argument_error",
]

INSTRUCTION = (
    "anything else that needs real computation (aggregating data, big numbers with BigInt, regular expressions, "
    "parsing, date and time-zone math with Intl or Temporal): write a short JavaScript snippet; its last expression "
    "(or `return` value) is the result, console.log output is returned too. Pass data in `input`."
)
"""The tool's line in the server's instructions."""

ERROR_KINDS = [
    "arguments",
    "syntax",
    "runtime",
    "timeout",
    "memory",
    "crashed",
    "cancelled",
    "busy",
    "session",
    "store",
]

SESSION_ARGUMENT = "^[A-Za-z0-9_.-]{1,400}$"
"""What ``session`` may be: a name (at most 64 characters), or a handle this server gave (``h.v1.`` and a sealed
token, longer than any name)."""


_CHARTS_DESCRIPTION = """

`display(x)` shows a Vega-Lite/Vega spec (inline data), SVG or PNG/JPEG bytes as an image."""


def _description(settings: Settings) -> str:
    return f"""\
Run JavaScript or TypeScript in an isolated V8 engine; get back its result and console output. Use it \
whenever an answer needs real computation instead of a guess: exact arithmetic (BigInt), statistics and \
aggregation over data passed in `input`, string processing and regular expressions, parsing (JSON, CSV, \
URLs), hashing and encoding, date and time-zone math (Intl, Temporal).

Results work as in a REPL: the last expression is the result (`xs.sort()`; a final `{{ mean, median }}` is \
that object); top-level `await` works and a Promise result is awaited. console.log/info/debug go to stdout, \
console.warn/error to stderr, as Node prints them; the result also comes as JSON.

Available: modern ECMAScript, TypeScript syntax (types removed; no enums or namespaces), \
Intl (full ICU), Temporal, WebAssembly, timers, structuredClone, TextEncoder/TextDecoder, atob/btoa, \
URL/URLSearchParams, performance.now, crypto (getRandomValues, randomUUID, subtle: digest, HMAC, PBKDF2, HKDF). \
Node 20's pure modules by require or import: buffer/Buffer, crypto (hashes, HMAC, random \
bytes, timingSafeEqual, pbkdf2), util, path, url, querystring, string_decoder, events, assert, timers, os \
constants, process (argv, stdout.write, exit, hrtime).{{packages}} Not available: network (fetch), {{no_packages}}\
process.env, child processes, writing files, the DOM.

Limits: {settings.default_timeout_ms} ms by default, {settings.memory_limit_mb} MiB of memory, output capped at \
{settings.output_cap_bytes} bytes, input up to {settings.max_input_bytes} bytes as JSON. Errors give their kind, \
message, line and column, and a hint for Node or browser habits.

Example: code `input.map(r => r.price * r.qty).reduce((a, b) => a + b, 0)` with input \
`[{{"price": 2.5, "qty": 4}}, {{"price": 10, "qty": 1}}]` gives `Result: 20`."""


def _with_packages(description: str, packages: Catalog | None) -> str:
    """The description naming the npm packages added (their dependencies are not named)."""
    if packages is None:
        return description.replace("{packages}", "").replace("{no_packages}", "packages, ")
    names = ", ".join(packages.names)
    return description.replace("{packages}", f" npm packages (import or require): {names}.").replace(
        "{no_packages}", "other packages, "
    )


def _files_description(settings: Settings) -> str:
    return f"""

Files: the user shared a data folder. Name files in `files` (paths, or patterns like `*.csv`, `**/*.json`) and \
read the global `files` by path: entries have `name`, `size`, `text`; CSV/TSV add `rows` (objects keyed by the \
header, string values, a missing cell is null), `records` (string arrays, header first) and `header`; JSON adds \
`json`. `{{"path": p, "as": "bytes"}}` gives a Uint8Array `bytes`. Node's fs reads the folder too, read-only. At \
most {settings.max_files} files and {settings.max_files_bytes} bytes per call. Example: files `["sales.csv"]`, code \
`files['sales.csv'].rows.reduce((t, r) => t + Number(r.amount), 0)`."""


def _files_schema(settings: Settings) -> dict[str, Any]:
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": settings.max_files,
        "description": "Data-folder files for the global `files`: paths, glob patterns or {path, as} objects.",
        "items": {
            # One schema for both forms: string keywords apply to names, object keywords to {"path", "as"}, so a
            # mistake is reported by the keyword it breaks.
            "type": ["string", "object"],
            "minLength": 1,
            "additionalProperties": False,
            "required": ["path"],
            "properties": {
                "path": {"type": "string", "minLength": 1},
                "as": {"enum": list(FORMATS), "default": "auto"},
            },
        },
    }


def input_schema(settings: Settings, files: bool = False, *, brief: bool = False) -> dict[str, Any]:
    """The tool's arguments; with ``files``, the data folder's ``files`` too. ``brief`` leaves out the descriptions,
    which ``execute_js``'s own schema gives a model that reads both."""
    schema = _full_input_schema(settings)
    if files:
        schema["properties"]["files"] = _files_schema(settings)
    if brief:  # the model reads execute_js's schema beside this one: the names and types say enough
        for value in schema["properties"].values():
            value.pop("description", None)
    return schema


def _full_input_schema(settings: Settings) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["code"],
        "properties": {
            "code": {
                "type": "string",
                "minLength": 1,
                "maxLength": settings.max_code_bytes,
                "description": (
                    "JavaScript or TypeScript source. The last expression's value (or the `return` value when the "
                    "code uses top-level await/return) is the result."
                ),
            },
            "timeout_ms": {
                "type": "integer",
                "minimum": 1,
                "default": settings.default_timeout_ms,
                "description": (
                    f"Wall-clock time limit in milliseconds; values above {settings.max_timeout_ms} are lowered to it."
                ),
            },
            "input": {
                "description": (
                    "Optional JSON data for the code, available as the global `input` (a copy it may modify)."
                ),
            },
            "session": {
                "type": "string",
                "pattern": SESSION_ARGUMENT,
                "description": (
                    "Keep globals between calls: a name starts a session; pass the last answer's `session.handle` "
                    "to continue it."
                ),
            },
            "reset": {"type": "boolean", "description": "With `session`: discard its state first."},
        },
    }


_ERROR_SCHEMA: dict[str, Any] = {
    "type": ["object", "null"],
    "description": "Why the execution failed; null on success.",
    "properties": {
        "kind": {"type": "string", "enum": ERROR_KINDS},
        "name": {"type": ["string", "null"], "description": "JavaScript error name, e.g. TypeError"},
        "message": {"type": ["string", "null"]},
        "line": {"type": ["integer", "null"], "description": "1-based line in the submitted code"},
        "column": {"type": ["integer", "null"], "description": "1-based column in the submitted code"},
        "stack": {"type": ["string", "null"], "description": "stack trace trimmed to the submitted code"},
        "hint": {"type": "string", "description": "what to use instead, for a Node or browser habit"},
    },
    "required": ["kind", "message"],
}

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean", "description": "true when the code ran to completion without an error"},
        "result": {"description": "the result as JSON (BigInt as a decimal string); absent when undefined"},
        "resultText": {"type": ["string", "null"], "description": "the result rendered as Node's console would"},
        "resultType": {"type": ["string", "null"], "description": "JavaScript type of the result"},
        "stdout": {"type": "string", "description": "console.log/info/debug output"},
        "stderr": {"type": "string", "description": "console.warn/error output and uncaught errors"},
        "truncated": {"type": "boolean", "description": "whether output was cut to fit the output cap"},
        "omittedBytes": {"type": "integer", "description": "bytes of output left out"},
        "durationMs": {"type": "number", "description": "execution time in milliseconds"},
        "timeoutMs": {"type": "integer", "description": "the time limit that applied"},
        "async": {"type": "boolean", "description": "whether the code ran as an async function body"},
        "error": _ERROR_SCHEMA,
        "images": {
            "type": "array",
            "description": "the images display() showed, in order (each is an image block of the result): kind, size "
            "and bytes, or why it could not be shown",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["vega-lite", "vega", "svg", "png", "jpeg"]},
                    "width": {"type": "integer"},
                    "height": {"type": "integer"},
                    "bytes": {"type": "integer"},
                    "description": {"type": "string"},
                    "error": {"type": "string"},
                },
                "required": ["kind"],
            },
        },
        "session": {
            "type": "object",
            "description": "the session the call ran in: the handle continuing it, calls so far, age, heap at the "
            "call's start, whether this call created it",
            "properties": {
                "name": {"type": "string"},
                "handle": {"type": "string"},
                "calls": {"type": "integer"},
                "ageS": {"type": "number"},
                "heapBytes": {"type": "integer"},
                "created": {"type": "boolean"},
                "rebuilt": {"type": "boolean"},
                "reset": {"type": "string"},
            },
            "required": ["name", "handle", "calls", "ageS", "heapBytes", "created"],
        },
    },
    "required": ["ok", "stdout", "stderr", "truncated", "durationMs", "error"],
}


def structure_argument_error(message: str, problems: list[str]) -> dict[str, Any]:
    return {
        "ok": False,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "omittedBytes": 0,
        "durationMs": 0,
        "error": {"kind": "arguments", "name": "ArgumentError", "message": message, "problems": problems},
    }


def execute_js_tool(
    settings: Settings,
    pool: WorkerPool,
    folder: DataFolder | None = None,
    sessions: SessionManager | None = None,
    renderer: Renderer | None = None,
    packages: Catalog | None = None,
) -> ToolSpec:
    """The ``execute_js`` tool bound to a worker pool; with a data ``folder``, it takes a ``files`` argument; with
    ``sessions``, a ``session`` argument keeps state between calls; with ``packages``, its code may import them."""
    description = _with_packages(_description(settings), packages)
    if renderer is not None:
        description += _CHARTS_DESCRIPTION
    if folder is not None:
        description += _files_description(settings)
    return ToolSpec(
        name="execute_js",
        title="Run JavaScript or TypeScript",
        instruction=INSTRUCTION,
        description=description,
        input_schema=input_schema(settings, folder is not None),
        output_schema=OUTPUT_SCHEMA,
        handler=js_handler(settings, pool, folder, sessions=sessions, renderer=renderer, packages=packages),
        icon="execute_js",
        annotations=PURE_COMPUTATION,
        structure_argument_error=structure_argument_error,
    )
