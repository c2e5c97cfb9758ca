"""A worker process: runs jobs one at a time, each in a fresh V8 isolate prepared in advance.

Started by the pool as ``python -m sandbox_server.sandbox.worker <limits>``; speaks the frames of
:mod:`sandbox_server.sandbox.protocol` on stdin and on a private copy of its original stdout. This is the
only module that imports the JavaScript engine (``py_mini_racer``).

What the worker guards against itself: ordinary runaway loops (mini-racer's own timeout), heap growth (the
isolate's hard memory limit), off-heap buffers (``RLIMIT_DATA``, which turns an ArrayBuffer bomb into a
catchable ``RangeError``), stray output on fd 1. What only the pool can stop: code that keeps the isolate
busy outside the call the worker made (a loop in a microtask, an ``await`` continuation or a timer
callback) freezes this process, and V8's fatal errors end it; the pool's deadline and its reading of
stderr handle those.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import json
import logging
import os
import re
import resource
import secrets
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, cast

from py_mini_racer import (
    JSArray,
    JSArrayIndexError,
    JSEvalException,
    JSFunction,
    JSKeyError,
    JSMappedObject,
    JSOOMException,
    JSParseException,
    JSPromiseError,
    JSTimeoutException,
    JSUndefined,
    JSValueError,
    LibAlreadyInitializedError,
    LibNotFoundError,
    MiniRacer,
    init_mini_racer,
)
from py_mini_racer._exc import (
    JSConversionException,
    JSTerminatedException,
    MiniRacerBaseException,
    WrongReturnTypeException,
)
from py_mini_racer._mini_racer import _make_context

import js_runtime
from sandbox_server.sandbox.limits import MIB, SandboxLimits
from sandbox_server.sandbox.outcome import (
    ErrorInfo,
    ErrorKind,
    Outcome,
    checked_outcome,
    failure_outcome,
    internal_error,
    memory_error,
    timeout_error,
)
from sandbox_server.sandbox.protocol import (
    HEADER,
    ProtocolError,
    attach_fields,
    decode_frame,
    encode_frame,
    frame_length,
    outcome_message,
    ready_message,
)
from sandbox_server.sandbox.source import Statement, Unsupported, analyze

__all__ = ["error_kind", "main", "syntax_error_position", "v8_flags"]

logger = logging.getLogger(__name__)

DATA_SLACK_MB = 64
"""Room in ``RLIMIT_DATA`` beyond the heap ceiling and the off-heap allowance, for the worker's own needs."""
PREPARE_TIMEOUT_S = 10.0
"""Longest wait for a new isolate to evaluate the runtime."""
ABORT_TIMEOUT_S = 1.0
"""Longest wait for the runtime to report the output of a stopped execution."""
ABORT_ATTEMPTS = 2
"""The first call after the memory limit stopped an execution is terminated too; the second one runs."""
LOCATE_TIMEOUT_S = 1.0
"""Longest wait for the parse that locates a syntax error."""
SETTLE_POLL_S = 0.05
"""How often the memory limit is checked while waiting for an asynchronous result."""
WATCH_INTERVAL_S = 0.01
"""How often the process's data size is read while a job runs."""
PRESSURE_SHARE = 0.5
"""Share of the data allowance in use at which the pool is told a job presses on memory (so that a native
crash that follows, ICU's for one, is reported as running out of memory)."""
STUCK_AFTER_LIMIT_S = 0.5
"""How long a job may go on after reaching the heap limit (mini-racer then terminates it) before it counts as
stuck in native code and is stopped as out of memory."""
STOP_RESERVE_BYTES = 16 * MIB
"""A job is stopped as out of memory when its process's data size comes this close to ``RLIMIT_DATA``."""
RECYCLE_GROWTH_BYTES = 64 * MIB
"""Data size a worker may have gained over its start-up size, measured between jobs, before it retires.

Some memory outlives an isolate (a pending ``Atomics.waitAsync`` with a time-out keeps a task of V8's
platform until its time comes); a worker that has gained this much is replaced, so that every job starts with
about the memory of a fresh worker. Ordinary jobs level off about 34 MiB above the start-up size (allocator
pools and V8's own caches filled by the first large jobs), well below this."""
MAX_JOBS_PER_WORKER = 2000
"""Jobs a worker runs before it retires, whatever its data size says."""

# Parsing the code wrapped in one of these forms reproduces the runtime's syntax error without running
# any of the code: each throws before its first statement (the async form only creates a function behind
# the throw, and text that closes that function early still cannot run). Both put the code on its own
# lines from line 2, so one offset maps V8's line back.
_SYNTAX_PROBES = {"script": ("throw 0;\n", ""), "async": ("throw 0; (async function () {\n", "\n})")}
_SYNTAX_PROBE_LINE_OFFSET = 1
_PARSE_MESSAGE = re.compile(r"^[^\n]*?:(\d+): [^\n]*\n([^\n]*)\n( *)\^")
_LINE_TERMINATORS = re.compile("\r\n|[\n\r\u2028\u2029]")

# mini-racer hands strings to V8 as UTF-8, which has no encoding for a lone surrogate; a request may hold one.
_SURROGATE = re.compile("[\ud800-\udfff]")


class _DataLimitNear(Exception):
    """The process's data size came within :data:`STOP_RESERVE_BYTES` of its ``RLIMIT_DATA``."""


# Every exception py_mini_racer defines, and what it means when running a job raises it. The code's own
# errors never arrive as exceptions (the runtime reports them in the outcome); TimeoutError is what
# asyncio.wait_for raises when the deadline passes.
_EXCEPTION_KINDS: dict[type[BaseException], ErrorKind] = {
    TimeoutError: "timeout",
    JSTimeoutException: "timeout",
    _DataLimitNear: "memory",
    JSOOMException: "memory",
    JSTerminatedException: "crashed",
    JSParseException: "crashed",
    JSEvalException: "crashed",
    JSPromiseError: "crashed",
    JSConversionException: "crashed",
    JSKeyError: "crashed",
    JSValueError: "crashed",
    JSArrayIndexError: "crashed",
    WrongReturnTypeException: "crashed",
    LibNotFoundError: "crashed",
    LibAlreadyInitializedError: "crashed",
    MiniRacerBaseException: "crashed",
}


def error_kind(exc: BaseException, *, memory_limit_reached: bool) -> ErrorKind:
    """Classify an exception raised while running a job.

    Args:
        exc: What the engine call raised.
        memory_limit_reached: Whether the isolate hit its hard memory limit; mini-racer then reports the
            termination as a plain ``JSEvalException`` or a timeout, so the flag decides.
    """
    if memory_limit_reached:
        return "memory"
    for cls in type(exc).__mro__:
        kind = _EXCEPTION_KINDS.get(cls)
        if kind is not None:
            return kind
    return "crashed"


def v8_flags(limits: SandboxLimits) -> list[str]:
    """The process-wide V8 flags of a worker."""
    return ["--single-threaded", f"--max-old-space-size={limits.heap_ceiling_mb}"]


def syntax_error_position(message: str, code: str) -> tuple[int, int] | None:
    """Line and column (1-based, in the submitted code) of the error in a probe's JSParseException message.

    The message looks like ``"<anonymous>:2: SyntaxError: ...\\n<source line>\\n   ^\\n..."``; the column is
    the caret's offset in the echoed line (UTF-16 code units, as JavaScript counts). A position past the
    end of the code (an unexpected end of input found in the probe's closing line) is moved to the end of
    the code's last line.
    """
    match = _PARSE_MESSAGE.match(message)
    if match is None:
        return None
    line = int(match.group(1)) - _SYNTAX_PROBE_LINE_OFFSET
    column = len(match.group(3)) + 1
    lines = _LINE_TERMINATORS.split(code)
    if line < 1:
        return 1, 1
    if line > len(lines):
        return len(lines), len(lines[-1].encode("utf-16-le")) // 2 + 1
    return line, column


class _Isolate:
    """A V8 isolate with the runtime evaluated and the memory limit set, ready for one job.

    The job starts with one evaluation, ``<entry>({code, input, options})``, under a random global name the runtime
    removes before the code runs (a function call would pass each argument in a thread hop of its own); a job
    with data-folder files calls ``run`` instead, so that megabytes of files are not parsed as source text. An
    outcome that is not ready when the run returns comes back through a mini-racer notification (a native
    function) handed to the runtime before any model-written code runs; after that, the worker calls into the
    isolate only without arguments, since mini-racer builds argument lists with the isolate's own
    ``Array.prototype``, which the code may have changed. Nothing of the worker is reachable from JavaScript.
    """

    def __init__(
        self, racer: MiniRacer, runtime: JSMappedObject, api: dict[str, JSFunction], channel: contextlib.ExitStack
    ) -> None:
        self.racer = racer
        self._runtime: JSMappedObject | None = runtime
        self._api: dict[str, JSFunction] | None = api
        self._channel = channel
        self._delivered: asyncio.Future[str] | None = None
        self._entry = "__job_" + secrets.token_hex(12)
        self._no_arguments: JSArray | None = None
        self.stuck = False
        """Whether the isolate stayed busy after its job was stopped (disposing of it may then hang)."""

    async def call_bare(self, name: str) -> Any:
        """Call the runtime function ``name`` without arguments, on the cancelable path only.

        mini-racer's own calls first evaluate ``[]`` synchronously for the argument list, which blocks the whole
        event loop while the isolate is busy in code that termination cannot stop (a native allocation); an
        empty list made while the isolate was idle serves every call (mini-racer 0.14).
        """
        assert self._api is not None and self._no_arguments is not None, "isolate used after close"
        return await self._call(self._api[name], self._no_arguments)

    async def _call(self, function: JSFunction, arguments: JSArray) -> Any:
        context = self.racer._ctx
        assert context is not None
        handles = [context._python_to_value_handle(item) for item in (function, JSUndefined, arguments)]
        return await context._run_cancelable_mr_task(context._dll.mr_call_function, *(h.raw for h in handles))

    @classmethod
    async def prepare(cls, limits: SandboxLimits, *, warm_up: bool = True) -> _Isolate:
        """Create an isolate, load the runtime into it and, unless told not to, warm the runtime up."""
        racer = _new_racer()
        channel = contextlib.ExitStack()
        try:
            racer.set_hard_memory_limit(limits.memory_limit_bytes)
            value = await asyncio.wait_for(racer.eval_cancelable(js_runtime.source()), PREPARE_TIMEOUT_S)
            if not isinstance(value, JSMappedObject):
                raise ProtocolError(f"the runtime evaluated to {type(value).__name__}, not an object")
            api: dict[str, JSFunction] = {}
            for name in _RUNTIME_FUNCTIONS:
                function = value.get(name)
                if not isinstance(function, JSFunction):
                    raise ProtocolError(f"the runtime object lacks the function {name}")
                api[name] = function
            arguments = value.get("workerArguments")
            if not isinstance(arguments, JSArray):
                raise ProtocolError("the runtime object lacks its argument list")
            isolate = cls(racer, value, api, channel)
            # Each push and each read is a thread hop: the runtime's own list carries connect's two arguments and,
            # emptied by connect, serves as the empty argument list of every later call.
            arguments.append(channel.enter_context(_notification(racer, isolate._on_delivery)))
            arguments.append(isolate._entry)
            connected = await asyncio.wait_for(isolate._call(api["connect"], arguments), PREPARE_TIMEOUT_S)
            if connected is not True:
                raise ProtocolError("the runtime refused the connection")
            isolate._no_arguments = arguments
        except BaseException:
            channel.close()
            racer.close()
            raise
        if warm_up and not await isolate.warm_up():
            logger.warning("using an isolate without warm-up")
            isolate.close()
            return await cls.prepare(limits, warm_up=False)
        return isolate

    def _on_delivery(self, arguments: Any) -> None:
        # Runs on the event loop. The runtime calls the notification once, with the outcome text.
        future = self._delivered
        if future is None or future.done():
            return
        text = arguments[0] if isinstance(arguments, JSArray) and len(arguments) == 1 else None
        future.set_result(text if isinstance(text, str) else "")

    async def warm_up(self) -> bool:
        """Run a trivial job in the runtime (its ``warmUp``), so that its own code is compiled before the real job.

        V8 compiles functions on their first call; without this, the job's first call would pay about a
        millisecond for the runtime's code. The runtime resets itself at the start of every run.
        """
        try:
            failure = await asyncio.wait_for(self.call_bare("warmUp"), PREPARE_TIMEOUT_S)
        except (MiniRacerBaseException, TimeoutError) as exc:
            failure = f"{type(exc).__name__}: {exc}"
        if failure == "":
            return True
        logger.warning("the runtime failed its warm-up run: %.300s", failure)
        return False

    def memory_limit_reached(self) -> bool:
        """Whether the isolate went over its hard memory limit (a flag read; safe while it is busy)."""
        return self.racer.was_hard_memory_limit_reached()

    async def start(self, code: str, input_json: str, options: str, files: str = "") -> Any:
        """Call the runtime's ``run``: the outcome JSON text, or ``""`` when it is delivered later."""
        assert self._api is not None, "isolate used after close"
        self._delivered = asyncio.get_running_loop().create_future()
        if files:
            # Data-folder files can be megabytes: as call arguments they cross without being escaped into
            # source text and parsed again (the hops cost microseconds against that). No model-written code
            # has run in this isolate yet, so building the argument list is still safe.
            assert self._runtime is not None
            run = self._runtime.get("run")
            if not isinstance(run, JSFunction):
                raise ProtocolError("the runtime object lacks the function run")
            return await run.cancelable()(code, input_json, options, files)
        job = json.dumps({"code": code, "input": input_json, "options": options})
        return await self.racer.eval_cancelable(f"{self._entry}({job})")

    async def settle(self, deadline: float) -> str:
        """Wait until ``deadline`` (event-loop time) for the outcome the runtime delivers.

        Raises:
            TimeoutError: The deadline passed first.
            JSOOMException: The memory limit stopped the code while it ran in a callback; such a
                termination leaves the run unfinished forever.
        """
        assert self._delivered is not None, "settle() before start()"
        loop = asyncio.get_running_loop()
        while not self._delivered.done():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError
            await asyncio.wait({self._delivered}, timeout=min(remaining, SETTLE_POLL_S))
            if not self._delivered.done() and self.memory_limit_reached():
                raise JSOOMException("JavaScript memory limit reached")
        return self._delivered.result()

    async def stopped_outcome(self, kind: ErrorKind, output_cap: int) -> dict[str, Any] | None:
        """The runtime's outcome of an execution mini-racer terminated, with the output captured so far.

        Returns None when the runtime cannot answer (its heap may still be full).
        """
        name = "abortMemory" if kind == "memory" else "abort"
        for _ in range(ABORT_ATTEMPTS):
            try:
                text = await asyncio.wait_for(self.call_bare(name), ABORT_TIMEOUT_S)
            except (MiniRacerBaseException, TimeoutError):
                continue
            return _parse_outcome(text, output_cap)
        # The isolate never answered: it is still busy in code termination cannot stop.
        self.stuck = True
        return None

    async def locate_syntax_error(self, code: str, mode: str) -> tuple[int, int] | None:
        """Line and column of the parse error the runtime reported for ``code`` in ``mode``."""
        prefix, suffix = _SYNTAX_PROBES.get(mode, _SYNTAX_PROBES["script"])
        try:
            await asyncio.wait_for(self.racer.eval_cancelable(prefix + code + suffix), LOCATE_TIMEOUT_S)
        except JSParseException as exc:
            return syntax_error_position(str(exc), code)
        except (MiniRacerBaseException, TimeoutError):
            return None
        return None

    def close(self) -> None:
        """Dispose of the isolate; may hang if code still runs in it (the pool's watchdog covers that)."""
        # Handles first: they belong to the isolate and must not outlive it.
        self._runtime = None
        self._api = None
        self._no_arguments = None
        self._channel.close()
        self.racer.close()


_RUNTIME_FUNCTIONS = ("connect", "warmUp", "abort", "abortMemory")
"""The runtime's functions the worker fetches up front (each read is a thread hop); ``run`` is read only for a job
with data-folder files, before its code runs."""


class _Racer(MiniRacer):
    """A mini-racer isolate without the setTimeout shim mini-racer evaluates in every new one.

    The runtime brings its own timers, so evaluating the shim (about 0.4 ms per isolate) would be wasted.
    Built from mini-racer's own context maker (mini-racer 0.14).
    """

    def __init__(self) -> None:
        self._own_context_maker = _make_context()
        self._ctx = self._own_context_maker.__enter__()


def _new_racer() -> MiniRacer:
    return _Racer()


_KEEPER: list[MiniRacer] = []
"""One idle isolate kept for the worker's life: while any isolate lives, V8 keeps its read-only heap, so each
new isolate is created (and disposed of) faster."""


def _keep_an_isolate() -> None:
    if not _KEEPER:
        _KEEPER.append(_new_racer())


@contextlib.contextmanager
def _notification(racer: MiniRacer, on_call: Callable[[Any], None]) -> Iterator[JSFunction]:
    """A JavaScript function that hands its arguments to ``on_call`` on the event loop, for the life of the block.

    mini-racer's public API offers such notifications only inside ``wrap_py_function``, which would also expose a
    promise-returning wrapper; the runtime needs the bare one-way function (mini-racer 0.14).
    """
    context = racer._ctx
    assert context is not None

    def received(handle: Any) -> None:
        on_call(context._value_handle_to_python(handle))

    with context._register_js_notification(received) as function:
        yield function


def _run_options(
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
        track_iterators: Follow Map and Set iterators from the start (see :func:`_tracks_iterators`).
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


def _web_sources(code: str) -> dict[str, str]:
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


def _tracks_iterators(code: str) -> bool:
    """Whether the runtime must follow Map and Set iterators from the start: the code may print one (it uses
    console) while a loop iterates it (it makes iterators). Otherwise iteration keeps V8's fast paths."""
    return "console" in code and _MAKES_ITERATORS.search(code) is not None


def _utf16_index(code: str, index: int) -> int:
    return index if code.isascii() else len(code[:index].encode("utf-16-le", "surrogatepass")) // 2


def _completion_hint(code: str, statement: Statement | None) -> list[Any] | None:
    if statement is None or statement.kind == "other":
        return None
    kind = "object" if statement.kind == "object_literal_block" else "expression"
    return [_utf16_index(code, statement.start), _utf16_index(code, statement.end), kind]


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


def _parse_outcome(text: Any, output_cap: int) -> dict[str, Any] | None:
    outcome = checked_outcome(text, output_cap)
    return None if outcome is None else dict(outcome)


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


@dataclass(frozen=True, slots=True)
class _DataBounds:
    """Data sizes (bytes) that matter while a job runs: where the pool is warned and where the job is stopped."""

    baseline: int
    pressure_at: int
    stop_at: int


async def _watch_memory(isolate: _Isolate, bounds: _DataBounds | None, on_pressure: Callable[[], None]) -> None:
    """Return when the running job must be stopped for memory; call ``on_pressure`` once on the way.

    Memory outside the V8 heap (ICU's objects, buffers) is invisible to the heap limit; when it uses up
    ``RLIMIT_DATA``, ICU crashes the process instead of throwing. Stopping the job when the process's data size
    reaches ``bounds.stop_at`` turns that into a memory error; if the crash is quicker than this watch, the
    pool, told of the pressure, reports it as one. A job still running :data:`STUCK_AFTER_LIMIT_S` after the
    heap limit was reached is inside one native call that termination cannot stop (``new
    Array(1e9).fill(0)``), which would only end in V8's fatal error much later: it is stopped here too.
    """
    warned = False
    limit_seen_at: float | None = None
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(WATCH_INTERVAL_S)
        if isolate.memory_limit_reached():
            limit_seen_at = limit_seen_at or loop.time()
            if loop.time() - limit_seen_at >= STUCK_AFTER_LIMIT_S:
                return
        if bounds is None:
            continue
        size = _vm_data_bytes()
        if not warned and size >= bounds.pressure_at:
            warned = True
            on_pressure()
        if size >= bounds.stop_at:
            return


async def _run_job(
    isolate: _Isolate, code: str, input_json: str, options: str, deadline: float, timeout_s: float, files: str = ""
) -> Any:
    value = await asyncio.wait_for(isolate.start(code, input_json, options, files), timeout_s)
    if value == "":
        value = await isolate.settle(deadline)
    return value


async def _guarded(
    isolate: _Isolate, job: Awaitable[Any], bounds: _DataBounds | None, on_pressure: Callable[[], None]
) -> Any:
    """``job``'s value, unless the memory watch ends first: then the job is cancelled (which terminates the code)."""
    task = asyncio.ensure_future(job)
    # Most jobs end within one reading interval; the watch (a task of its own) starts only for those that do not.
    await asyncio.wait({task}, timeout=WATCH_INTERVAL_S)
    if task.done():
        return task.result()
    watch = asyncio.ensure_future(_watch_memory(isolate, bounds, on_pressure))
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise _DataLimitNear
    return task.result()


async def _execute(
    isolate: _Isolate,
    request: dict[str, Any],
    limits: SandboxLimits,
    bounds: _DataBounds | None = None,
    on_pressure: Callable[[], None] = lambda: None,
) -> Outcome:
    """Run one job in ``isolate`` and build its outcome; never raises for anything the code does."""
    code, input_json = _engine_text(request["code"], request["input"])
    analysis = analyze(code)
    if analysis.unsupported is not None:
        return _unsupported_outcome(analysis.unsupported)
    code = analysis.code
    timeout_ms: int = request["timeoutMs"]
    options = _run_options(
        limits,
        seed=True,
        completion=_completion_hint(code, analysis.last_statement),
        modules=_web_sources(code),
        track_iterators=_tracks_iterators(code),
    )
    loop = asyncio.get_running_loop()
    started = loop.time()

    def elapsed_ms() -> float:
        return (loop.time() - started) * 1000

    try:
        files = request.get("files", "")
        job = _run_job(isolate, code, input_json, options, started + timeout_ms / 1000, timeout_ms / 1000, files)
        value = await _guarded(isolate, job, bounds, on_pressure)
    except Exception as exc:
        kind = error_kind(exc, memory_limit_reached=isolate.memory_limit_reached())
        if kind == "crashed":
            logger.exception("the engine failed while running a job")
            return failure_outcome(internal_error(f"the engine failed: {type(exc).__name__}"), elapsed_ms())
        error = timeout_error(timeout_ms) if kind == "timeout" else memory_error(limits.memory_limit_mb)
        return await _stopped(isolate, error, elapsed_ms(), limits.output_cap_bytes)
    duration_ms = elapsed_ms()
    outcome = _parse_outcome(value, limits.output_cap_bytes)
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
    return cast("Outcome", outcome)


def _fail_for_memory(outcome: dict[str, Any], error: ErrorInfo) -> None:
    """Turn ``outcome`` into a memory failure, keeping the output captured before it."""
    outcome.pop("result", None)
    outcome.update(ok=False, resultText=None, resultType=None, error=error)


async def _stopped(isolate: _Isolate, error: ErrorInfo, duration_ms: float, output_cap: int) -> Outcome:
    """The outcome of an execution stopped for ``error``, keeping the output captured before the stop."""
    captured = await isolate.stopped_outcome(error["kind"], output_cap)
    if captured is None:
        return failure_outcome(error, duration_ms)
    captured.update(ok=False, error=error, durationMs=round(duration_ms, 3))
    return cast("Outcome", captured)


class _Channel:
    """The worker's end of the frames: requests on stdin, answers on a private descriptor."""

    def __init__(self, reader: asyncio.StreamReader, out_fd: int) -> None:
        self._reader = reader
        self._out_fd = out_fd

    @classmethod
    async def open(cls, out_fd: int) -> _Channel:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", 0))
        return cls(reader, out_fd)

    async def receive(self) -> dict[str, Any] | None:
        """The next message, or None when the pool closed the pipe."""
        try:
            header = await self._reader.readexactly(HEADER.size)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise ProtocolError("the request stream ended inside a frame header") from exc
            return None
        message = decode_frame(await self._read_body(header))
        if "attached" in message:
            names = message["attached"]
            count = len(names) if isinstance(names, list) else 0
            bodies = [await self._read_body(await self._read_header()) for _ in range(count)]
            message = attach_fields(message, bodies)
        return message

    async def _read_header(self) -> bytes:
        try:
            return await self._reader.readexactly(HEADER.size)
        except asyncio.IncompleteReadError as exc:
            raise ProtocolError("the request stream ended inside a frame header") from exc

    async def _read_body(self, header: bytes) -> bytes:
        try:
            return await self._reader.readexactly(frame_length(header))
        except asyncio.IncompleteReadError as exc:
            raise ProtocolError("the request stream ended inside a frame") from exc

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; blocking is fine, the pool always reads."""
        data = memoryview(encode_frame(message))
        while data:
            written = os.write(self._out_fd, data)
            data = data[written:]


def _read_request(message: dict[str, Any]) -> dict[str, Any]:
    if message["op"] != "run":
        raise ProtocolError(f"unknown request {message['op']!r}")
    expected = {"id": int, "code": str, "input": str, "timeoutMs": int}
    for key, kind in expected.items():
        if not isinstance(message.get(key), kind):
            raise ProtocolError(f"run request field {key!r} is missing or not {kind.__name__}")
    if message["timeoutMs"] < 1:
        raise ProtocolError("run request timeoutMs must be positive")
    if not isinstance(message.get("files", ""), str):
        raise ProtocolError("run request field 'files' is not str")
    backlog = message.get("backlog", 0)
    if not isinstance(backlog, int) or backlog < 0:
        raise ProtocolError("run request field 'backlog' is not a count")
    return message


def _versions(isolate: _Isolate) -> tuple[str, str]:
    return isolate.racer.v8_version, metadata.version("mini-racer")


def _vm_data_bytes() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    raise OSError("VmData not found in /proc/self/status")


def _limit_data_segment(limits: SandboxLimits) -> _DataBounds | None:
    """Bound memory outside the V8 heap (ArrayBuffer, WebAssembly.Memory) with RLIMIT_DATA.

    Measured from the process's own data size once V8 and one isolate are up, so the limit does not depend
    on how much address space V8 reserves at start-up. RLIMIT_AS would be simpler, but V8 cannot start
    under it.
    """
    if not sys.platform.startswith("linux"):
        logger.warning("no off-heap memory limit on %s", sys.platform)
        return None
    baseline = _vm_data_bytes()
    allowance_mb = limits.heap_ceiling_mb + limits.memory_limit_mb + DATA_SLACK_MB
    # Off a multiple of 32 MiB, so that buffers of 32 or 64 MiB leave the V8 heap room to grow when they
    # use up the limit: the code then gets a RangeError instead of V8 aborting the process.
    allowance = (allowance_mb + (16 - allowance_mb) % 32) * MIB
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = baseline + allowance if hard == resource.RLIM_INFINITY else min(baseline + allowance, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    logger.debug("RLIMIT_DATA %d MiB (baseline %d MiB)", limit // MIB, baseline // MIB)
    return _DataBounds(
        baseline=baseline,
        pressure_at=baseline + int((limit - baseline) * PRESSURE_SHARE),
        stop_at=limit - STOP_RESERVE_BYTES,
    )


def _claim_stdout() -> int:
    """Keep fd 1 for the protocol under a new number and send whatever else writes to fd 1 to stderr."""
    out_fd = os.dup(1)
    os.dup2(2, 1)
    return out_fd


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the pool's process dies, even while JavaScript keeps it busy."""
    if not sys.platform.startswith("linux"):
        return
    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0) != 0:
        logger.warning("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())
    if os.getppid() == 1:
        # The parent died before the request took effect.
        os._exit(1)


def _set_timezone(name: str) -> None:
    """Fix the time zone V8 reports; it reads TZ when it starts."""
    os.environ["TZ"] = name
    time.tzset()


async def _serve(limits: SandboxLimits, out_fd: int) -> None:
    channel = await _Channel.open(out_fd)
    _keep_an_isolate()
    isolate = await _Isolate.prepare(limits)
    bounds = _limit_data_segment(limits)
    ready = ready_message(*_versions(isolate))
    channel.send(ready)
    jobs = 0
    try:
        while (message := await channel.receive()) is not None:
            request = _read_request(message)
            job_id = request["id"]
            warn = functools.partial(channel.send, {"op": "pressure", "id": job_id})
            outcome = await _execute(isolate, request, limits, bounds, warn)
            channel.send(outcome_message(job_id, outcome))
            jobs += 1
            if isolate.stuck:
                # Disposing of an isolate that is still running would wait for it: make way for a fresh process.
                stuck = "its isolate stayed busy in native code after its job was stopped"
                channel.send({"op": "retire", "reason": stuck})
                sys.stderr.flush()
                os._exit(0)
            isolate.close()
            # With jobs waiting in the pool, the next one comes as soon as this worker is ready: warming the isolate
            # up would only delay it, compiling what the job compiles anyway.
            isolate = await _Isolate.prepare(limits, warm_up=request.get("backlog", 0) == 0)
            reason = _retirement(jobs, bounds)
            if reason is not None:
                channel.send({"op": "retire", "reason": reason})
                return
            channel.send(ready)
    finally:
        isolate.close()


def _retirement(jobs: int, bounds: _DataBounds | None) -> str | None:
    """Why this worker should make way for a fresh one now, if it should."""
    if jobs >= MAX_JOBS_PER_WORKER:
        return f"it ran {jobs} jobs"
    if bounds is not None:
        grown = _vm_data_bytes() - bounds.baseline
        if grown > RECYCLE_GROWTH_BYTES:
            return f"its data size grew by {grown // MIB} MiB"
    return None


def _print_versions() -> int:
    # Only the engine knows its V8 version; one throwaway isolate tells it.
    init_mini_racer(flags=["--single-threaded"])
    with MiniRacer() as racer:
        versions = {"v8": racer.v8_version, "miniRacer": metadata.version("mini-racer")}
    sys.stdout.write(json.dumps(versions) + "\n")
    sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the worker until the pool closes its stdin; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--versions"]:
        return _print_versions()
    limits = SandboxLimits.from_args(args)
    out_fd = _claim_stdout()
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    _die_with_parent()
    _set_timezone(limits.timezone)
    init_mini_racer(flags=v8_flags(limits))
    try:
        asyncio.run(_serve(limits, out_fd))
    except ProtocolError:
        logger.exception("protocol failure")
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def _run_and_exit() -> None:
    try:
        status = main()
    except SystemExit as exc:  # bad arguments
        status = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        logger.exception("the worker failed")
        status = 1
    sys.stderr.flush()
    # Skip interpreter finalisation: mini-racer's finalizers can block once the event loop is gone.
    os._exit(status)


if __name__ == "__main__":
    _run_and_exit()
