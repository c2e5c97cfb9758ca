"""Calls that start before the SDK has routed them: over stdio, a small ``execute_js`` call of pure computation is read
from the request's text as it arrives (:mod:`sandbox_server.transport.hints`) and its job goes to an idle worker at
once, while the SDK parses, validates and routes the same request (about a millisecond). When the call's handler
comes, it builds its job as always and takes the early one's outcome only if that job is the same, field for field;
otherwise, and for every call that was not started early, it runs its own.

Only a job that reaches nothing outside its isolate starts early (no host calls, no data-folder files, no other
servers' tools, no session, no journal), so a run the SDK then refuses, or that the client cancels before its
handler comes, has touched nothing: it is stopped when its cancellation arrives, when the handler finds a different
job, or :data:`EARLY_CLAIM_S` after it started if no handler came for it.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from sandbox_server.registry import RequestKey, request_key
from sandbox_server.sandbox import Job, Outcome, WorkerPool

__all__ = [
    "EARLY_CLAIM_S",
    "MAX_EARLY_BYTES",
    "EarlyCall",
    "EarlyRuns",
    "announces_a_cancel",
    "cancelled_request",
    "outcome_of",
    "read_call",
]

MAX_EARLY_BYTES = 64 * 1024
"""The largest request read ahead of the SDK: a larger one is only ever parsed once, by the SDK."""
EARLY_CLAIM_S = 2.0
"""How long a call started early waits for its handler before it is stopped: the SDK routes a request in about a
millisecond, and in hundreds of them on a loaded machine."""


class EarlyRuns:
    """The jobs started early on a pool, by request, until their handlers take them."""

    def __init__(self, pool: WorkerPool) -> None:
        self._pool = pool
        self._runs: dict[RequestKey, tuple[Job, asyncio.Task[Outcome], asyncio.TimerHandle]] = {}

    def start(self, key: RequestKey, job: Job) -> bool:
        """Start ``job`` for the request ``key`` if a worker is free for it now and nothing was started for that key
        already (a client that reuses an id gets no early start); whether it started."""
        if key in self._runs or self._pool.spare() == 0:
            return False
        loop = asyncio.get_running_loop()
        task = loop.create_task(self._pool.run(job))
        task.add_done_callback(_observed)
        self._runs[key] = (job, task, loop.call_later(EARLY_CLAIM_S, self.stop, key))
        return True

    def take(self, key: RequestKey | None, job: Job) -> asyncio.Task[Outcome] | None:
        """The run started early for the request ``key``, if it runs ``job``; one that runs another job is stopped."""
        entry = self._runs.pop(key, None) if key is not None else None
        if entry is None:
            return None
        started, task, timer = entry
        timer.cancel()
        if started != job:
            task.cancel()
            return None
        return task

    def stop(self, key: RequestKey) -> None:
        """Stop the run started early for the request ``key``, unless its handler took it."""
        entry = self._runs.pop(key, None)
        if entry is not None:
            entry[2].cancel()
            entry[1].cancel()

    def pending(self) -> int:
        """How many runs started early wait for their handlers."""
        return len(self._runs)


async def outcome_of(task: asyncio.Task[Outcome]) -> Outcome:
    """The outcome of a run started early, awaited as the handler's own: cancelling the handler stops it."""
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.cancel()
        raise


def _observed(task: asyncio.Task[Outcome]) -> None:
    # A run nobody took ends unread (stopped, or the pool closed): its failure is not news.
    if not task.cancelled():
        task.exception()


def announces_a_cancel(data: bytes | bytearray) -> bool:
    """Whether ``data`` reads like a ``notifications/cancelled``; nothing is parsed."""
    return b'"notifications/cancelled"' in data


@dataclass(frozen=True, slots=True)
class EarlyCall:
    """A ``tools/call`` request read ahead of the SDK: the request's key, the tool's name and its arguments."""

    key: RequestKey
    name: str
    arguments: dict[str, Any]


def _message(data: bytes) -> dict[str, Any] | None:
    if len(data) > MAX_EARLY_BYTES:
        return None
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):  # the SDK answers what it makes of it
        return None
    return message if isinstance(message, dict) and message.get("jsonrpc") == "2.0" else None


def read_call(data: bytes) -> EarlyCall | None:
    """The tool call ``data`` holds: None unless it is one JSON-RPC ``tools/call`` request of at most
    :data:`MAX_EARLY_BYTES`, with an id, a tool name and an object of arguments, that resumes no paused run. What the
    SDK makes of the same text is what counts; this reading is only ever a guess that the handler confirms."""
    message = _message(data)
    if message is None or message.get("method") != "tools/call":
        return None
    key = request_key(message.get("id"))
    params = message.get("params")
    if key is None or not isinstance(params, dict) or "requestState" in params or "inputResponses" in params:
        return None
    name, arguments = params.get("name"), params.get("arguments", {})
    if not isinstance(name, str) or not isinstance(arguments, dict):
        return None
    return EarlyCall(key, name, arguments)


def cancelled_request(data: bytes) -> RequestKey | None:
    """The key of the request a ``notifications/cancelled`` in ``data`` cancels, if it is one."""
    message = _message(data)
    if message is None or message.get("method") != "notifications/cancelled":
        return None
    params = message.get("params")
    return request_key(params.get("requestId")) if isinstance(params, dict) else None
