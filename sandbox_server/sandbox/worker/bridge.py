"""The worker's side of the calls running code makes to the host (see ``js_runtime/host.js``).

The runtime hands each request to the worker through a notification, as JSON text it wrote itself; but the
model's code shares the isolate, so the worker trusts nothing in it. :class:`HostBridge` checks each request (its
size, its shape, the execution's count of calls), passes it to the pool as a ``host`` frame, waits for the pool's
``hostResult``, and settles the call in the isolate. At most ``in_flight`` calls go to the pool at once; others
wait here, in order. When the job ends, every call still waiting or in flight is dropped: the pool cancels its own
side as the outcome arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sandbox_server.sandbox.worker.isolate import Isolate

__all__ = ["HostBridge", "HostLimits"]

logger = logging.getLogger(__name__)

_KIND_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._")


@dataclass(frozen=True, slots=True)
class HostLimits:
    """What one execution may ask of the host, as the run request says.

    Attributes:
        calls: Calls in all; past it each call fails, naming ``calls_setting``.
        in_flight: Calls passed to the pool at once; more wait.
        request_bytes: Largest request text; past it a call fails, naming ``request_setting``.
    """

    calls: int
    calls_setting: str
    in_flight: int
    request_bytes: int
    request_setting: str = "max_tool_argument_bytes"

    @classmethod
    def from_request(cls, value: Any) -> HostLimits | None:
        """The limits a run request carries (``host``), or None when it allows no host calls."""
        if not isinstance(value, dict):
            return None
        calls, in_flight, size = value.get("calls"), value.get("inFlight"), value.get("requestBytes")
        setting, size_setting = value.get("callsSetting"), value.get("requestSetting", "max_tool_argument_bytes")
        numbers = (calls, in_flight, size)
        if not all(isinstance(number, int) and number >= 1 for number in numbers) or not isinstance(setting, str):
            return None
        if not isinstance(size_setting, str):
            return None
        return cls(int(calls), setting, int(in_flight), int(size), size_setting)  # type: ignore[arg-type]


class HostBridge:
    """One job's host calls, from the isolate's notification to the pool and back.

    Args:
        isolate: The job's isolate; its notification of host calls is routed here for the life of the bridge.
        job_id: The job's id in the pool's frames.
        limits: The execution's limits; None when the job may make no host calls (each then fails at once).
        send: Writes one frame to the pool.
    """

    def __init__(
        self, isolate: Isolate, job_id: int, limits: HostLimits | None, send: Callable[[dict[str, Any]], None]
    ) -> None:
        self._isolate = isolate
        self.job_id = job_id
        self._limits = limits
        self._send = send
        self._made = 0
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._gate = asyncio.Semaphore(limits.in_flight if limits is not None else 1)
        self._closed = False
        isolate.on_host_call = self._received

    def _received(self, text: str) -> None:
        # Runs on the event loop, inside the notification: the work goes to a task of its own.
        if self._closed:
            return
        task = asyncio.get_running_loop().create_task(self._serve(text))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, text: str) -> None:
        call_id, request, refusal = self._check(text)
        if call_id is None:
            return  # not even an id to answer under: the runtime wrote no such request
        if refusal is not None:
            await self._settle({"id": call_id, "ok": False, "error": refusal})
            return
        assert request is not None
        async with self._gate:
            if self._closed:
                return
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._answers[call_id] = future
            self._send({"op": "host", "id": self.job_id, "call": call_id, **request})
            try:
                answer = await future
            finally:
                self._answers.pop(call_id, None)
        await self._settle({**answer, "id": call_id})

    def _check(self, text: str) -> tuple[int | None, dict[str, Any] | None, dict[str, Any] | None]:
        """The call's id, the request to pass on, and a refusal (an error for the code) when it is not to pass."""
        limits = self._limits
        if len(text) > (limits.request_bytes if limits is not None else 65_536) + 1024:
            call_id = _leading_id(text)
            most = limits.request_bytes if limits is not None else 65_536
            return (
                call_id,
                None,
                _error(
                    "HostCallTooLarge",
                    f"the request is larger than a host call may be ({most} bytes as JSON, "
                    f"{limits.request_setting if limits is not None else 'max_tool_argument_bytes'}): "
                    "pass less per call, or split it over several calls",
                ),
            )
        try:
            message = json.loads(text)
        except ValueError:
            return None, None, None
        if not isinstance(message, dict) or not isinstance(message.get("id"), int):
            return None, None, None
        call_id = int(message["id"])
        kind = message.get("kind")
        if not isinstance(kind, str) or not 0 < len(kind) <= 64 or not set(kind) <= _KIND_CHARS:
            return call_id, None, _error("TypeError", "a host call needs a kind")
        if limits is None:
            return call_id, None, _error("HostCallRefused", "this call cannot reach the host")
        self._made += 1
        if self._made > limits.calls:
            return (
                call_id,
                None,
                _error(
                    "HostCallLimit",
                    f"this execution has made {limits.calls} calls to the host, the most one execution may make "
                    f"({limits.calls_setting}); do more work per call, or split the work over several executions",
                ),
            )
        return call_id, {"kind": kind, "payload": message.get("payload")}, None

    def answered(self, message: dict[str, Any]) -> None:
        """The pool's ``hostResult`` for one of this job's calls."""
        call = message.get("call")
        future = self._answers.get(call) if isinstance(call, int) else None
        if future is None or future.done():
            return
        if message.get("ok") is True:
            future.set_result({"ok": True, "value": message.get("value")})
        else:
            error = message.get("error")
            future.set_result({"ok": False, "error": error if isinstance(error, dict) else _error("Error", "failed")})

    async def _settle(self, answer: dict[str, Any]) -> None:
        if self._closed:
            return
        text = json.dumps(answer, ensure_ascii=True, separators=(",", ":"))
        try:
            await self._isolate.request("settle", text)
        except Exception:  # the isolate is being stopped: the run is over and waits for nothing
            logger.debug("a host call's answer could not be delivered", exc_info=True)

    async def close(self) -> None:
        """Drop every call still waiting or in flight, and stop taking new ones."""
        self._closed = True
        self._isolate.on_host_call = None
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _error(name: str, message: str) -> dict[str, Any]:
    return {"name": name, "message": message}


def _leading_id(text: str) -> int | None:
    """The id of a request too long to parse, from its start (the runtime writes the id first)."""
    head = text[:64]
    if not head.startswith('{"id":'):
        return None
    digits = head[6:].split(",", 1)[0].strip()
    return int(digits) if digits.isascii() and digits.isdigit() else None
