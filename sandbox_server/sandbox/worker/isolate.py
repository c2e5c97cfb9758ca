"""One V8 isolate with the runtime loaded, ready for one job: starting it, waiting for its outcome, stopping it, and
locating a syntax error."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
from collections.abc import Callable
from typing import Any

from py_mini_racer import (
    JSArray,
    JSFunction,
    JSMappedObject,
    JSOOMException,
    JSParseException,
    JSUndefined,
    MiniRacer,
)
from py_mini_racer._exc import MiniRacerBaseException

import js_runtime
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import ErrorKind, checked_outcome
from sandbox_server.sandbox.protocol import ProtocolError
from sandbox_server.sandbox.worker import engine

__all__ = ["ABORT_TIMEOUT_S", "PREPARE_TIMEOUT_S", "Isolate", "parse_outcome", "syntax_error_position"]

logger = logging.getLogger(__name__)

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
# Parsing the code wrapped in one of these forms reproduces the runtime's syntax error without running
# any of the code: each throws before its first statement (the async form only creates a function behind
# the throw, and text that closes that function early still cannot run). Both put the code on its own
# lines from line 2, so one offset maps V8's line back.
_SYNTAX_PROBES = {"script": ("throw 0;\n", ""), "async": ("throw 0; (async function () {\n", "\n})")}
_SYNTAX_PROBE_LINE_OFFSET = 1
_PARSE_MESSAGE = re.compile(r"^[^\n]*?:(\d+): [^\n]*\n([^\n]*)\n( *)\^")
_LINE_TERMINATORS = re.compile("\r\n|[\n\r\u2028\u2029]")


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


class Isolate:
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
        self.on_host_call: Callable[[str], None] | None = None
        """Where the runtime's host calls go (the job's bridge); while None, they are dropped."""
        self.stuck = False
        """Whether the isolate stayed busy after its job was stopped (disposing of it may then hang)."""
        self.runs = 0
        """Jobs started in this isolate: more than one only for an isolate a session keeps."""

    async def call_bare(self, name: str) -> Any:
        """Call the runtime function ``name`` without arguments, on the cancelable path only.

        mini-racer's own calls first evaluate ``[]`` synchronously for the argument list, which blocks the whole
        event loop while the isolate is busy in code that termination cannot stop (a native allocation); an
        empty list made while the isolate was idle serves every call (mini-racer 0.14).
        """
        assert self._api is not None and self._no_arguments is not None, "isolate used after close"
        return await self._call(self._api[name], self._no_arguments)

    async def call_with_this(self, name: str, text: str) -> Any:
        """Call the runtime function ``name`` with the string ``text`` as its ``this`` and no arguments.

        mini-racer makes a string from Python in C++, with no JavaScript involved, so the code in the isolate can
        neither see nor change it on the way; the function is strict, so ``this`` stays that string.
        """
        assert self._api is not None and self._no_arguments is not None, "isolate used after close"
        return await self._call(self._api[name], self._no_arguments, text)

    async def _call(self, function: JSFunction, arguments: JSArray, this: str | None = None) -> Any:
        context = self.racer._ctx
        assert context is not None
        receiver: Any = JSUndefined if this is None else this
        handles = [context._python_to_value_handle(item) for item in (function, receiver, arguments)]
        return await context._run_cancelable_mr_task(context._dll.mr_call_function, *(h.raw for h in handles))

    @classmethod
    async def prepare(cls, limits: SandboxLimits, *, warm_up: bool = True) -> Isolate:
        """Create an isolate, load the runtime into it and, unless told not to, warm the runtime up."""
        racer = engine.new_racer()
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
            # Each push and each read is a thread hop: the runtime's own list carries connect's three arguments and,
            # emptied by connect, serves as the empty argument list of every later call. The deferred source goes as
            # a string mini-racer makes, which V8 does not parse until the runtime needs a group of it.
            arguments.append(channel.enter_context(engine.notification(racer, isolate._on_delivery)))
            arguments.append(isolate._entry)
            arguments.append(js_runtime.deferred_source())
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

    def _on_host_call(self, arguments: Any) -> None:
        # Runs on the event loop. The runtime calls the notification with one string, the request's JSON text.
        text = arguments[0] if isinstance(arguments, JSArray) and len(arguments) == 1 else None
        if isinstance(text, str) and self.on_host_call is not None:
            self.on_host_call(text)

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

    def heap(self) -> dict[str, int]:
        """The heap's used and total bytes; only while the isolate is idle (mini-racer's reading waits for it)."""
        stats = self.racer.heap_stats()
        return {"used": int(stats.get("used_heap_size", 0)), "total": int(stats.get("total_heap_size", 0))}

    def memory_limit_reached(self) -> bool:
        """Whether the isolate went over its hard memory limit (a flag read; safe while it is busy)."""
        return self.racer.was_hard_memory_limit_reached()

    async def start(self, code: str, input_json: str, options: str, files: str = "", *, host: bool = False) -> Any:
        """Call the runtime's ``run``: the outcome JSON text, or ``""`` when it is delivered later.

        With ``host``, the run gets the notification its host calls go through (to :attr:`on_host_call`).
        """
        assert self._api is not None, "isolate used after close"
        self._delivered = asyncio.get_running_loop().create_future()
        self.runs += 1
        if self.runs > 1:
            # A session's later job: the code of earlier jobs has run here, so nothing is passed through argument
            # lists or globals it could have changed; the job travels as one string, the call's `this`.
            job = json.dumps({"code": code, "input": input_json, "options": options, "files": files})
            return await self.call_with_this("runNext", job)
        if files or host:
            # Data-folder files can be megabytes: as call arguments they cross without being escaped into
            # source text and parsed again (the hops cost microseconds against that). No model-written code
            # has run in this isolate yet, so building the argument list, and reading the runtime's functions,
            # is still safe; both wait for an idle isolate.
            assert self._runtime is not None
            run = self._runtime.get("run")
            if not isinstance(run, JSFunction):
                raise ProtocolError("the runtime object lacks the function run")
            if not host:
                return await run.cancelable()(code, input_json, options, files)
            settle = self._runtime.get("settleHostCall")
            if not isinstance(settle, JSFunction):
                raise ProtocolError("the runtime object lacks the function settleHostCall")
            self._api["settleHostCall"] = settle
            notify = self._channel.enter_context(engine.notification(self.racer, self._on_host_call))
            return await run.cancelable()(code, input_json, options, files, notify)
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
            return parse_outcome(text, output_cap)
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


_RUNTIME_FUNCTIONS = ("connect", "warmUp", "abort", "abortMemory", "runNext", "takeDisplays")
"""The runtime's functions the worker fetches up front (each read is a thread hop); ``run`` is read only for a job
with data-folder files, before its code runs."""


def parse_outcome(text: Any, output_cap: int) -> dict[str, Any] | None:
    outcome = checked_outcome(text, output_cap)
    return None if outcome is None else dict(outcome)
