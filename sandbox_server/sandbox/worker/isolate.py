"""One V8 isolate with the runtime loaded, ready for one job: starting it, waiting for its outcome, stopping it, and
locating a syntax error."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from py_mini_racer import (
    JSArray,
    JSFunction,
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

__all__ = ["ABORT_TIMEOUT_S", "COMMON_GROUPS", "PREPARE_TIMEOUT_S", "Isolate", "parse_outcome", "syntax_error_position"]

logger = logging.getLogger(__name__)

PREPARE_TIMEOUT_S = 10.0
"""Longest wait for a new isolate to evaluate the runtime."""
ABORT_TIMEOUT_S = 1.0
"""Longest wait for the runtime to report the output of a stopped execution."""
ABORT_ATTEMPTS = 2
"""The first call after the memory limit stopped an execution is terminated too; the second one runs."""
COMMON_GROUPS = ("async", "outcome", "text", "render", "console", "errors")
"""The runtime's deferred groups most jobs use beyond a number's outcome (awaiting, an object's or a string's outcome,
logging, an error), which a worker with nothing else to do compiles ahead, in this order."""
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

    The runtime evaluates to one function, its request entry: the worker calls it with the request (``job``, a line
    break and the job's JSON text; ``abort``; ``settle`` and a host call's answer...) as ``this``, a string mini-racer
    makes in C++, and the runtime's own empty list as the arguments, so that no call needs a handle but that
    function's, no code is parsed to pass a job, and nothing of the call goes through what the model's code may have
    changed (mini-racer builds argument lists with the isolate's own ``Array.prototype``). Only the first job of an
    isolate with data-folder files or host calls calls ``run`` with arguments, before any model-written code has run,
    so that megabytes of files are not escaped into JSON text. An outcome that is not ready when the run returns comes
    back through a mini-racer notification (a native function) handed to the runtime by ``connect``, before any
    model-written code runs. Nothing of the worker is reachable from JavaScript.
    """

    def __init__(self, racer: MiniRacer, entry: JSFunction, channel: contextlib.ExitStack) -> None:
        self.racer = racer
        self._entry: JSFunction | None = entry
        self._channel = channel
        self._delivered: asyncio.Future[str] | None = None
        self._no_arguments: JSArray | None = None
        self.on_host_call: Callable[[str], None] | None = None
        """Where the runtime's host calls go (the job's bridge); while None, they are dropped."""
        self.stuck = False
        """Whether the isolate stayed busy after its job was stopped (disposing of it may then hang)."""
        self.runs = 0
        """Jobs started in this isolate: more than one only for an isolate a session keeps."""

    async def request(self, name: str, body: str | None = None) -> Any:
        """Ask the runtime for ``name`` (with ``body``, its text), on the cancelable path only.

        mini-racer's own calls first evaluate ``[]`` synchronously for the argument list, which blocks the whole
        event loop while the isolate is busy in code that termination cannot stop (a native allocation); the
        runtime's empty list, handed over while the isolate was idle, serves every call (mini-racer 0.14).
        """
        assert self._entry is not None and self._no_arguments is not None, "isolate used after close"
        return await self._call(self._entry, self._no_arguments, name if body is None else f"{name}\n{body}")

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
            entry = await asyncio.wait_for(racer.eval_cancelable(js_runtime.source()), PREPARE_TIMEOUT_S)
            if not isinstance(entry, JSFunction):
                raise ProtocolError(f"the runtime evaluated to {type(entry).__name__}, not a function")
            isolate = cls(racer, entry, channel)
            # No model-written code has run yet, so mini-racer's own call (a new list, a push per argument) is safe.
            # The deferred source goes in the request, a string mini-racer makes, which V8 parses only when the
            # runtime needs a group of it; the warm-up runs inside the same call.
            notify = channel.enter_context(engine.notification(racer, isolate._on_delivery))
            host = channel.enter_context(engine.notification(racer, isolate._on_host_call))
            setup = f"connect\n{'warm' if warm_up else 'cold'}\n{js_runtime.deferred_source()}"
            connect = entry.cancelable()(notify, host, this=setup)  # type: ignore[arg-type]
            connected = await asyncio.wait_for(connect, PREPARE_TIMEOUT_S)
        except BaseException:
            channel.close()
            racer.close()
            raise
        if isinstance(connected, JSArray):
            isolate._no_arguments = connected
            return isolate
        isolate.close()
        if warm_up and isinstance(connected, str):
            logger.warning("the runtime failed its warm-up run: %.300s; using an isolate without warm-up", connected)
            return await cls.prepare(limits, warm_up=False)
        raise ProtocolError("the runtime refused the connection")

    def _on_delivery(self, text: Any) -> None:
        # Runs on the event loop. The runtime calls the notification once, with the outcome text.
        future = self._delivered
        if future is None or future.done():
            return
        future.set_result(text if isinstance(text, str) else "")

    def _on_host_call(self, text: Any) -> None:
        # Runs on the event loop. The runtime calls the notification with one string, the request's JSON text.
        if isinstance(text, str) and self.on_host_call is not None:
            self.on_host_call(text)

    async def warm_up(self) -> bool:
        """Run a trivial job in the runtime (its ``warmUp``), so that its own code is compiled before the real job.

        V8 compiles functions on their first call; without this, the job's first call would pay about a
        millisecond for the runtime's code. The runtime resets itself at the start of every run. :meth:`prepare`
        warms up inside its connecting call; this is for an isolate prepared without.
        """
        try:
            failure = await asyncio.wait_for(self.request("warmUp"), PREPARE_TIMEOUT_S)
        except (MiniRacerBaseException, TimeoutError) as exc:
            failure = f"{type(exc).__name__}: {exc}"
        if failure == "":
            return True
        logger.warning("the runtime failed its warm-up run: %.300s", failure)
        return False

    async def warm_up_tools(self) -> None:
        """Run a code-mode job in the runtime (its ``warmUpTools``: an awaited tool call, answered inside the isolate),
        so that the tools, host-call and asynchronous paths are compiled before a code-mode job comes; a failure is
        logged and changes nothing else (what the warm-up installs is taken away, and every job starts anew)."""
        try:
            failure = await asyncio.wait_for(self.request("warmUpTools"), PREPARE_TIMEOUT_S)
        except (MiniRacerBaseException, TimeoutError) as exc:
            failure = f"{type(exc).__name__}: {exc}"
        if failure != "":
            logger.warning("the runtime failed its code-mode warm-up run: %.300s", failure)

    async def compile_ahead(self, group: str) -> None:
        """Compile the runtime's deferred group ``group`` with its functions (see ``js_runtime/deferral.py``), for a
        worker with nothing else to do; a failure is logged and changes nothing else (a group compiles on use
        anyway)."""
        try:
            await asyncio.wait_for(
                self.request("compileGroupAhead", f"{group}\n{js_runtime.ahead_source(group)}"), PREPARE_TIMEOUT_S
            )
        except (MiniRacerBaseException, TimeoutError) as exc:
            logger.warning("the runtime's group %s did not compile: %s: %.300s", group, type(exc).__name__, exc)

    async def compile_common_groups(self, stop: Callable[[], bool] = lambda: False) -> None:
        """Compile ahead the runtime's groups most jobs use beyond a number's outcome (:data:`COMMON_GROUPS`), one at
        a time, as a worker does while it waits for a job; it stops before the next group once ``stop`` says so."""
        for group in COMMON_GROUPS:
            if stop():
                return
            await self.compile_ahead(group)

    def heap(self) -> dict[str, int]:
        """The heap's used and total bytes; only while the isolate is idle (mini-racer's reading waits for it)."""
        stats = self.racer.heap_stats()
        return {"used": int(stats.get("used_heap_size", 0)), "total": int(stats.get("total_heap_size", 0))}

    def memory_limit_reached(self) -> bool:
        """Whether the isolate went over its hard memory limit (a flag read; safe while it is busy)."""
        return self.racer.was_hard_memory_limit_reached()

    async def start(self, code: str, input_json: str, options: str, files: str = "") -> Any:
        """Start a run: the outcome JSON text, or ``""`` when it is delivered later.

        The run's host calls go to :attr:`on_host_call` when its options allow them (``host``): the notification
        they go through was handed over with ``connect``.
        """
        assert self._entry is not None, "isolate used after close"
        self._delivered = asyncio.get_running_loop().create_future()
        self.runs += 1
        if self.runs == 1 and files:
            # Data-folder files can be megabytes: as call arguments they cross without being escaped into JSON text
            # and parsed again. No model-written code has run in this isolate yet, so building the argument list and
            # reading the runtime's `run` are still safe; both wait for an idle isolate.
            run = self._entry.get("run")
            if not isinstance(run, JSFunction):
                raise ProtocolError("the runtime lacks the function run")
            return await run.cancelable()(code, input_json, options, files)
        # Any other job, and a later job of a session's isolate, where the code of earlier jobs has run: the job
        # travels as one string, the call's `this`, with no argument list to build.
        job = json.dumps({"code": code, "input": input_json, "options": options, "files": files})
        return await self.request("job", job)

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
        name = {"memory": "abortMemory", "paused": "pause"}.get(kind, "abort")
        for _ in range(ABORT_ATTEMPTS):
            try:
                text = await asyncio.wait_for(self.request(name), ABORT_TIMEOUT_S)
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
        self._entry = None
        self._no_arguments = None
        self._channel.close()
        self.racer.close()


def parse_outcome(text: Any, output_cap: int) -> dict[str, Any] | None:
    outcome = checked_outcome(text, output_cap)
    return None if outcome is None else dict(outcome)
