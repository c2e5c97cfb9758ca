"""One job: analyse the code, run it in the isolate under its limits and the memory watch, and build its outcome.
Nothing the code does raises here: every failure becomes an outcome.

A request with ``"cell": true`` is a session cell: its code is rewritten so that its top-level declarations
become global variables that outlive it and it can run again in the same isolate
(:mod:`sandbox_server.sandbox.source.cells`); the run declares those names before the code runs."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any, cast

from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import (
    ErrorInfo,
    Outcome,
    failure_outcome,
    internal_error,
    memory_error,
    paused_error,
    timeout_error,
)
from sandbox_server.sandbox.source import Unsupported, analyze
from sandbox_server.sandbox.source.cells import as_cell
from sandbox_server.sandbox.source.modules import rewrite_modules
from sandbox_server.sandbox.worker.bridge import HostBridge
from sandbox_server.sandbox.worker.engine import Paused, error_kind
from sandbox_server.sandbox.worker.isolate import Isolate, parse_outcome
from sandbox_server.sandbox.worker.memory import DataBounds, guarded
from sandbox_server.sandbox.worker.options import (
    completion_hint,
    journal_options,
    node_preload,
    node_sources,
    run_options,
    tracks_iterators,
    web_preload,
    web_sources,
    web_sources_for_node,
)
from sandbox_server.sandbox.worker.packaging import job_packages

__all__ = ["execute"]

logger = logging.getLogger(__name__)

# mini-racer hands strings to V8 as UTF-8, which has no encoding for a lone surrogate; a request may hold one.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unsupported_outcome(unsupported: Unsupported) -> Outcome:
    """The outcome of TypeScript that cannot run as JavaScript: a syntax error saying what to write instead."""
    error: ErrorInfo = {
        "kind": "syntax",
        "name": "SyntaxError",
        "message": unsupported.message,
        "line": unsupported.line,
        "column": unsupported.column,
        "stack": None,
    }
    return failure_outcome(error, 0.0)


def _escape_surrogate(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _engine_text(code: str, input_json: str) -> tuple[str, str]:
    """``code`` and ``input_json`` in a form mini-racer can pass to V8, which takes UTF-8 only.

    A lone surrogate in the input JSON (it can only be inside a string) becomes its ``\\u`` escape, so the code
    reads exactly the string that was sent. One in the code becomes U+FFFD, a single UTF-16 unit like the
    surrogate, so that line and column numbers still match the code as sent.
    """
    if _SURROGATE.search(code):
        code = _SURROGATE.sub("\ufffd", code)
    if _SURROGATE.search(input_json):
        input_json = _SURROGATE.sub(_escape_surrogate, input_json)
    return code, input_json


async def _started(isolate: Isolate, code: str, input_json: str, options: str, deadline: float, files: str) -> Any:
    value = await isolate.start(code, input_json, options, files)
    if value == "":
        value = await isolate.settle(deadline)
    return value


async def execute(
    isolate: Isolate,
    request: dict[str, Any],
    limits: SandboxLimits,
    bounds: DataBounds | None = None,
    on_pressure: Callable[[], None] = lambda: None,
    bridge: HostBridge | None = None,
    pause: asyncio.Future[None] | None = None,
) -> Outcome:
    """Run one job in ``isolate`` and build its outcome; never raises for anything the code does.

    With a ``bridge``, the code's calls to the host go through it (its caller closes it after the job). Resolving
    ``pause`` stops the job with an outcome of kind ``paused`` (with its journal, for a journaled job).
    """
    code, input_json = _engine_text(request["code"], request["input"])
    analysis = analyze(rewrite_modules(code))
    if analysis.unsupported is not None:
        return _unsupported_outcome(analysis.unsupported)
    code = analysis.code
    # A cell's rewrite only adds writes to globals: what the code uses is read from the code as written.
    cell = as_cell(code, analysis.last_statement) if request.get("cell") is True else None
    run_code, last_statement = (cell.code, cell.last_statement) if cell is not None else (code, analysis.last_statement)
    timeout_ms: int = request["timeoutMs"]
    node = node_sources(code)
    preload = node_preload(code) if node is not None else []
    packages = job_packages(request, code)  # the npm packages the code names (packaging.py)
    if isinstance(packages, dict):
        return failure_outcome(packages, 0.0)
    if packages is not None:
        node = {**(node or {}), **packages.node}
    journal = journal_options(request["journal"]) if "journal" in request else None
    reads_memory = node is not None and "memoryUsage" in code
    memory = journal.memory if journal is not None and journal.memory is not None else None
    options = run_options(
        limits,
        seed=journal.seed if journal is not None else True,
        journal=journal.spec if journal is not None else None,
        completion=completion_hint(run_code, last_statement),
        modules=web_sources(code, web_sources_for_node(node or {}) | (packages.web if packages else set())),
        web_preload=web_preload(code, web_sources_for_node(preload)),
        node_modules=node,
        node_preload=preload,
        data_folder=request.get("dataFolder") is True,
        memory=memory if memory is not None else (isolate.heap() if reads_memory else None),
        track_iterators=tracks_iterators(code),
        tools=request.get("tools"),
        session=request.get("keep") is True,
        charts=request.get("charts") is True,
        cell_names=cell.names if cell is not None else (),
        host=bridge is not None,
    )
    if packages is not None:
        options = packages.options(options)
        await packages.offer(isolate)
    code = run_code
    loop = asyncio.get_running_loop()
    started = loop.time()

    def elapsed_ms() -> float:
        return (loop.time() - started) * 1000

    try:
        files = request.get("files", "")
        deadline = started + timeout_ms / 1000
        job = _started(isolate, code, input_json, options, deadline, files)
        value = await guarded(isolate, job, deadline, bounds, on_pressure, pause)
    except Paused:
        return await _stopped(isolate, paused_error(), elapsed_ms(), limits.output_cap_bytes)
    except Exception as exc:
        kind = error_kind(exc, memory_limit_reached=isolate.memory_limit_reached())
        if kind == "crashed":
            logger.exception("the engine failed while running a job")
            return failure_outcome(internal_error(f"the engine failed: {type(exc).__name__}"), elapsed_ms())
        error = timeout_error(timeout_ms) if kind == "timeout" else memory_error(limits.memory_limit_mb)
        return await _stopped(isolate, error, elapsed_ms(), limits.output_cap_bytes)
    duration_ms = elapsed_ms()
    outcome = parse_outcome(value, limits.output_cap_bytes)
    if outcome is None:
        logger.error("the runtime returned an outcome that is unreadable or over its limits: %.200r", value)
        return failure_outcome(internal_error("the sandbox runtime returned an unreadable outcome"), duration_ms)
    error = outcome["error"]
    if isolate.memory_limit_reached():
        # The limit stopped a timer callback or microtask; the runtime may have finished the run anyway.
        _fail_for_memory(outcome, memory_error(limits.memory_limit_mb))
    elif isinstance(error, dict) and error.get("kind") == "syntax" and error.get("line") is None:
        position = await isolate.locate_syntax_error(code, str(outcome.get("syntaxMode")))
        if position is not None:
            error["line"], error["column"] = position
    elif isinstance(error, dict) and error.get("kind") == "memory":
        # The runtime found that V8 itself threw for memory outside the heap (RLIMIT_DATA reached).
        replacement = memory_error(limits.memory_limit_mb)
        replacement["line"], replacement["column"] = error.get("line"), error.get("column")
        replacement["stack"] = error.get("stack")
        _fail_for_memory(outcome, replacement)
    outcome["durationMs"] = round(duration_ms, 3)
    if outcome.get("displays"):
        outcome["displays"] = await _displays(isolate)
    return cast("Outcome", outcome)


MAX_DISPLAYS_CHARS = 12 * 1024 * 1024
"""Most characters of images one run may pass on (the runtime stops at 8 Mi characters of data)."""


async def _displays(isolate: Isolate) -> str:
    """The images the run's ``display()`` calls collected, as JSON text; '[]' when unreadable or too large."""
    try:
        text = await isolate.request("takeDisplays")
    except Exception:
        logger.exception("the images of a run could not be read")
        return "[]"
    if not isinstance(text, str) or len(text) > MAX_DISPLAYS_CHARS:
        return "[]"
    return text


def _fail_for_memory(outcome: dict[str, Any], error: ErrorInfo) -> None:
    """Turn ``outcome`` into a memory failure, keeping the output captured before it."""
    outcome.pop("result", None)
    outcome.update(ok=False, resultText=None, resultType=None, error=error)


async def _stopped(isolate: Isolate, error: ErrorInfo, duration_ms: float, output_cap: int) -> Outcome:
    """The outcome of an execution stopped for ``error``, keeping the output captured before the stop."""
    captured = await isolate.stopped_outcome(error["kind"], output_cap)
    if captured is None:
        return failure_outcome(error, duration_ms)
    captured.update(ok=False, error=error, durationMs=round(duration_ms, 3))
    return cast("Outcome", captured)
