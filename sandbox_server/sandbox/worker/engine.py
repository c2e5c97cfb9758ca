"""The engine as the worker uses it: mini-racer's exceptions mapped to error kinds, the V8 flags, isolates without
mini-racer's timer shim, and the one-way notification that carries an outcome back. With :mod:`.isolate`, the only
modules that import ``py_mini_racer``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from py_mini_racer import (
    JSArray,
    JSArrayIndexError,
    JSEvalException,
    JSFunction,
    JSKeyError,
    JSOOMException,
    JSParseException,
    JSPromiseError,
    JSTimeoutException,
    JSUndefined,
    JSValueError,
    LibAlreadyInitializedError,
    LibNotFoundError,
    MiniRacer,
)
from py_mini_racer._exc import (
    JSConversionException,
    JSTerminatedException,
    MiniRacerBaseException,
    WrongReturnTypeException,
)
from py_mini_racer._mini_racer import _make_context

from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import ErrorKind

__all__ = [
    "EXCEPTION_KINDS",
    "KEEPER",
    "DataLimitNear",
    "Paused",
    "Racer",
    "error_kind",
    "keep_an_isolate",
    "new_racer",
    "notification",
    "v8_flags",
]


class DataLimitNear(Exception):
    """The process's data size came within :data:`.memory.STOP_RESERVE_BYTES` of its allowance."""


class Paused(Exception):
    """The pool asked the running job to pause (its code waits for the user's consent): it is stopped and its
    outcome carries the journal to run it again with."""


# Every exception py_mini_racer defines, and what it means when running a job raises it. The code's own
# errors never arrive as exceptions (the runtime reports them in the outcome); TimeoutError is what
# asyncio.wait_for raises when the deadline passes.
EXCEPTION_KINDS: dict[type[BaseException], ErrorKind] = {
    TimeoutError: "timeout",
    JSTimeoutException: "timeout",
    DataLimitNear: "memory",
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
        kind = EXCEPTION_KINDS.get(cls)
        if kind is not None:
            return kind
    return "crashed"


def v8_flags(limits: SandboxLimits) -> list[str]:
    """The process-wide V8 flags of a worker."""
    return ["--single-threaded", f"--max-old-space-size={limits.heap_ceiling_mb}"]


class Racer(MiniRacer):
    """A mini-racer isolate without the setTimeout shim mini-racer evaluates in every new one.

    The runtime brings its own timers, so evaluating the shim (about 0.4 ms per isolate) would be wasted.
    Built from mini-racer's own context maker (mini-racer 0.14).
    """

    def __init__(self) -> None:
        self._own_context_maker = _make_context()
        self._ctx = self._own_context_maker.__enter__()


def new_racer() -> MiniRacer:
    return Racer()


KEEPER: list[MiniRacer] = []
"""One idle isolate kept for the worker's life: while any isolate lives, V8 keeps its read-only heap, so each
new isolate is created (and disposed of) faster."""


def keep_an_isolate() -> None:
    if not KEEPER:
        KEEPER.append(new_racer())


@contextlib.contextmanager
def notification(racer: MiniRacer, on_call: Callable[[Any], None]) -> Iterator[JSFunction]:
    """A JavaScript function that hands its first argument to ``on_call`` on the event loop, for the life of the
    block (``JSUndefined`` when it was called without one).

    mini-racer's public API offers such notifications only inside ``wrap_py_function``, which would also expose a
    promise-returning wrapper; the runtime needs the bare one-way function (mini-racer 0.14). The notification
    arrives as the list of its arguments, made in C++; each read of that list waits for the isolate, so the first
    argument is read in one step, without asking for the list's length first (``JSArray`` indexing asks twice).
    """
    context = racer._ctx
    assert context is not None

    def received(handle: Any) -> None:
        arguments = context._value_handle_to_python(handle)
        on_call(context.get_object_item(arguments, 0) if isinstance(arguments, JSArray) else JSUndefined)

    with context._register_js_notification(received) as function:
        yield function
