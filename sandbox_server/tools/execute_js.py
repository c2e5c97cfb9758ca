"""The ``execute_js`` tool: run model-written JavaScript in a fresh V8 isolate and report what it computed."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import anyio

from sandbox_server.data.files import FORMATS, FilesLimits, build_payload, check_frame_room, parse_requests, select
from sandbox_server.data.folder import DataFile, DataFolder, Stop, off_the_loop
from sandbox_server.data.nodefs import FsBudget, FsService, preload_entries, preload_names, uses_fs
from sandbox_server.errors import ArgumentError
from sandbox_server.registry import PURE_COMPUTATION, CallContext, ToolSpec
from sandbox_server.results import ToolResult, error, ok
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.sandbox.protocol import HostHandler, HostService
from sandbox_server.settings import MAX_HOST_REQUEST_BYTES, Settings
from sandbox_server.tools.hints import hint_for
from sandbox_server.tools.host_calls import HostDispatcher

__all__ = ["PROGRESS_INTERVAL_S", "execute_js_tool", "fenced", "render_outcome"]

PROGRESS_INTERVAL_S = 0.5
"""How often a running execution reports progress when the caller asked for it."""

ERROR_KINDS = ["arguments", "syntax", "runtime", "timeout", "memory", "crashed", "cancelled", "busy"]


def _description(settings: Settings) -> str:
    return f"""\
Run JavaScript or TypeScript in a fresh, isolated V8 engine and get back its result and console output. Use it \
whenever an answer needs real computation instead of a guess: exact arithmetic (BigInt), statistics and \
aggregation over data passed in `input`, sorting, string processing and regular expressions, parsing (JSON, \
CSV, URLs), hashing and encoding, date and time-zone math (Intl, Temporal), checking a calculation.

Results work as in a REPL: the last expression is the result (`xs.sort()`; a final `{{ mean, median }}` is \
that object); top-level `await` works and a Promise result is awaited. console.log/info/debug go to stdout, \
console.warn/error to stderr, printed as Node prints them; the result also comes as JSON.

Available: modern ECMAScript, TypeScript syntax (types removed; no enums or namespaces), \
Intl with full ICU data, Temporal, WebAssembly, timers, structuredClone, TextEncoder/TextDecoder, atob/btoa, \
URL/URLSearchParams, performance.now, crypto (getRandomValues, randomUUID, subtle: digest, HMAC, PBKDF2, HKDF). \
Node 20's pure modules by require or import: buffer/Buffer, crypto (hashes, HMAC, random \
bytes, timingSafeEqual, pbkdf2), util, path, url, querystring, string_decoder, events, assert, timers, os \
constants, process (argv ['node', '/main.js'], stdout.write, exit, hrtime). The global `input` is a copy of the \
`input` argument. Not available: network (fetch), packages, process.env, child processes, writing files, the \
DOM. Each call starts from a clean state.

Limits: {settings.default_timeout_ms} ms by default (timeout_ms up to {settings.max_timeout_ms}), \
{settings.memory_limit_mb} MiB of memory, output capped at {settings.output_cap_bytes} bytes (head and tail \
kept), code up to {settings.max_code_bytes} bytes, input up to {settings.max_input_bytes} bytes as JSON. Errors \
give their kind, message, line and column, and a hint for Node or browser habits.

Example: code `input.map(r => r.price * r.qty).reduce((a, b) => a + b, 0)` with input \
`[{{"price": 2.5, "qty": 4}}, {{"price": 10, "qty": 1}}]` gives `Result: 20`."""


def _files_description(settings: Settings) -> str:
    return f"""

Files: the user shared a data folder (listed as resources). Name files in `files` (paths, or patterns like \
`*.csv`, `**/*.json`) and read the global `files` by path: each entry has `name`, `size`, `text`; CSV/TSV add \
`rows` (objects keyed by the header, string values, a missing cell is null), `records` (string arrays, header \
first) and `header`; JSON adds `json`. `{{"path": p, "as": "bytes"}}` gives a Uint8Array `bytes` (`as` also \
takes text, csv, tsv, json). Node's fs reads the folder too, read-only. At most {settings.max_files} files and \
{settings.max_files_bytes} bytes per call. Example: files `["sales.csv"]`, code `files['sales.csv'].rows.reduce((t, r) => t + Number(r.amount), 0)`."""


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


def _input_schema(settings: Settings) -> dict[str, Any]:
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
    },
    "required": ["ok", "stdout", "stderr", "truncated", "durationMs", "error"],
}


def _structure_argument_error(message: str, problems: list[str]) -> dict[str, Any]:
    return {
        "ok": False,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "omittedBytes": 0,
        "durationMs": 0,
        "error": {"kind": "arguments", "name": "ArgumentError", "message": message, "problems": problems},
    }


def _position(error: dict[str, Any]) -> str:
    line, column = error.get("line"), error.get("column")
    if line is None:
        return ""
    return f" at line {line}" + (f", column {column}" if column is not None else "")


_LINE_BREAK = re.compile("[\r\n\u2028\u2029\x0b\x0c\x85]")
_BACKTICKS = re.compile("`+")


def fenced(text: str) -> str:
    """``text`` in a Markdown code fence longer than any run of backticks inside it, so it cannot close it.

    Everything the code controls (its output, its result, its error messages, function names) reaches the
    text either on one line after a label or inside such a fence: no value can imitate a section of the text.
    """
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.rstrip(chr(10))}\n{fence}"


def _labelled(label: str, text: str) -> str:
    """``label: text`` on one line when ``text`` is one line, else the label and ``text`` fenced below it."""
    if _LINE_BREAK.search(text) is None and "`" not in text[:1] + text[-1:]:
        return f"{label}: {text}"
    return f"{label}:\n{fenced(text)}"


def _error_message(error: dict[str, Any], settings: Settings, timeout_ms: int) -> str:
    kind = error.get("kind")
    if kind == "timeout":
        return (
            f"Execution timed out: it did not finish within timeout_ms={timeout_ms}. If the code is correct but "
            f"slow, call again with a larger timeout_ms (at most {settings.max_timeout_ms}); otherwise look for an "
            "infinite loop or a promise or timer that never settles."
        )
    if kind == "memory":
        return (
            f"Execution ran out of memory: the limit is {settings.memory_limit_mb} MiB per execution. "
            "Work on smaller pieces of data, avoid keeping everything in memory, or use typed arrays."
        )
    if kind == "busy":
        return (
            f"The server is busy: {error.get('message') or 'no JavaScript worker became free in time'}. The code did "
            "not run; call again in a moment."
        )
    if kind == "crashed":
        detail = error.get("message") or "the worker process died"
        if error.get("name") == "InternalError":
            return f"The sandbox failed to run the code ({detail}); the call may be retried."
        return (
            f"The JavaScript engine process crashed ({detail}). The server has replaced it; "
            "the call may be retried, preferably with simpler code."
        )
    name = error.get("name") or "Error"
    message = error.get("message") or ""
    label = "Syntax error" if kind == "syntax" else "Uncaught exception"
    summary = f"{name}: {message}"
    if _LINE_BREAK.search(summary) is None and summary.endswith("."):
        text = f"{label}{_position(error)}: {summary}"
    elif _LINE_BREAK.search(summary) is None:
        text = f"{label}: {summary}{_position(error)}."
    else:
        text = f"{label}{_position(error)}:\n{fenced(summary)}"
    stack = error.get("stack")
    if stack and kind == "runtime":
        frames = [line for line in str(stack).splitlines() if line.strip().startswith("at ")]
        if frames:
            text += "\n" + fenced("\n".join(frames))
    return text


def _result_text(structured: dict[str, Any]) -> str:
    """The result as the text shows it: a string result as the string itself, anything else as Node prints it."""
    if structured.get("resultType") == "string" and isinstance(structured.get("result"), str):
        return str(structured["result"])
    text = structured.get("resultText")
    return "undefined" if text is None else str(text)


def render_outcome(outcome: dict[str, Any], settings: Settings, timeout_ms: int, code: str = "") -> ToolResult:
    """Turn a worker outcome into the tool result: readable text plus the structured object."""
    structured: dict[str, Any] = {
        key: outcome[key]
        for key in (
            "ok",
            "result",
            "resultText",
            "resultType",
            "stdout",
            "stderr",
            "truncated",
            "omittedBytes",
            "durationMs",
            "async",
            "error",
        )
        if key in outcome
    }
    structured.setdefault("stdout", "")
    structured.setdefault("stderr", "")
    structured.setdefault("truncated", False)
    structured.setdefault("durationMs", 0)
    structured.setdefault("error", None)
    structured["ok"] = bool(outcome.get("ok")) and structured["error"] is None
    structured["timeoutMs"] = timeout_ms

    parts: list[str] = []
    failure = structured["error"]
    if failure is not None:
        parts.append("Error: " + _error_message(failure, settings, timeout_ms))
        hint = hint_for(failure, code, data_folder=settings.data_dir is not None)
        if hint is not None:
            failure["hint"] = hint
            parts.append("Hint: " + hint)
    else:
        shown = _result_text(structured)
        result = _labelled("Result", shown)
        whole_string = structured.get("resultType") == "string" and shown == structured.get("result")
        if outcome.get("resultShortened") and "result" in structured and not whole_string:
            result += "\n(the text above is shortened; the full value is in the structured result)"
        parts.append(result)
    if structured["stdout"]:
        parts.append("stdout:\n" + fenced(structured["stdout"]))
    if structured["stderr"]:
        parts.append("stderr:\n" + fenced(structured["stderr"]))
    if structured["truncated"]:
        parts.append(
            f"(output truncated to {settings.output_cap_bytes} bytes; {structured.get('omittedBytes', 0)} bytes "
            "left out: print less, or summarise before printing)"
        )
    text = "\n\n".join(parts)
    if failure is not None:
        return error(text, structured)
    return ok(text, structured)


def _host_service(settings: Settings, services: dict[str, HostHandler]) -> HostService:
    return HostService(
        handler=HostDispatcher(services),
        calls=settings.max_tool_calls,
        calls_setting="max_tool_calls",
        in_flight=settings.max_calls_in_flight,
        request_bytes=MAX_HOST_REQUEST_BYTES,
    )


def execute_js_tool(settings: Settings, pool: WorkerPool, folder: DataFolder | None = None) -> ToolSpec:
    """The ``execute_js`` tool bound to a worker pool; with a data ``folder``, it takes a ``files`` argument."""
    files_limits = FilesLimits(max_files=settings.max_files, max_bytes=settings.max_files_bytes)

    async def files_payload(arguments: dict[str, Any], budget: FsBudget | None) -> str | None:
        """The files the call names and, for code that may use Node's fs, what its string literals name."""
        code: str = arguments["code"]
        preloads = preload_names(code) if budget is not None and uses_fs(code) else []
        if folder is None or ("files" not in arguments and not preloads):
            return None
        requests = parse_requests(arguments["files"]) if "files" in arguments else []

        def prepare(stop: Stop) -> str:  # file-system work and parsing, off the event loop, ended with the call
            selected = select(folder, requests, files_limits, stop) if requests else []
            fs_files: list[DataFile] = []
            fs_entries: list[dict[str, Any]] = []
            if budget is not None and preloads:
                fs_files, fs_entries = preload_entries(folder, preloads, budget, stop)
            payload = build_payload(folder, selected, files_limits.max_bytes, stop, fs_files, fs_entries)
            check_frame_room(payload)
            return payload

        return await off_the_loop(prepare)

    async def handler(arguments: dict[str, Any], context: CallContext) -> ToolResult:
        code: str = arguments["code"]
        code_bytes = len(code.encode("utf-8", "surrogatepass"))
        if code_bytes > settings.max_code_bytes:
            message = f"code is {code_bytes} bytes long; at most {settings.max_code_bytes} bytes are accepted."
            raise ArgumentError(message, problems=[message])
        timeout_ms = min(int(arguments.get("timeout_ms", settings.default_timeout_ms)), settings.max_timeout_ms)
        input_json: str | None = None
        if "input" in arguments:
            input_json = json.dumps(arguments["input"], ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            input_bytes = len(input_json.encode("utf-8", "surrogatepass"))
            if input_bytes > settings.max_input_bytes:
                message = (
                    f"input is {input_bytes} bytes as JSON; at most {settings.max_input_bytes} bytes are accepted."
                )
                raise ArgumentError(message, problems=[message])
        budget = FsBudget(settings.max_files, settings.max_files_bytes) if folder is not None else None
        services: dict[str, HostHandler] = {}
        if folder is not None and budget is not None:
            services["fs"] = FsService(folder, budget)
        job = Job(
            code=code,
            input_json=input_json,
            timeout_ms=timeout_ms,
            files_payload=await files_payload(arguments, budget),
            host=_host_service(settings, services) if services else None,
            data_folder=folder is not None,
        )

        started = time.monotonic()
        outcome: dict[str, Any] = {}

        async def report_progress() -> None:
            while True:
                await anyio.sleep(PROGRESS_INTERVAL_S)
                elapsed = (time.monotonic() - started) * 1000
                await context.report_progress(elapsed, float(timeout_ms), f"running for {elapsed:.0f} ms")

        if not context.progress_requested:
            return render_outcome(dict(await pool.run(job)), settings, timeout_ms, code)
        async with anyio.create_task_group() as group:
            group.start_soon(report_progress)
            outcome = dict(await pool.run(job))
            group.cancel_scope.cancel()
        return render_outcome(outcome, settings, timeout_ms, code)

    description = _description(settings)
    input_schema = _input_schema(settings)
    if folder is not None:
        description += _files_description(settings)
        input_schema["properties"]["files"] = _files_schema(settings)
    return ToolSpec(
        name="execute_js",
        title="Run JavaScript or TypeScript",
        description=description,
        input_schema=input_schema,
        output_schema=OUTPUT_SCHEMA,
        handler=handler,
        icon="execute_js",
        annotations=PURE_COMPUTATION,
        structure_argument_error=_structure_argument_error,
    )
