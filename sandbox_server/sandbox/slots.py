"""What the pool keeps about each job and each worker: a :class:`Pending` job from submission to outcome, and a
:class:`Slot`, one worker process and what it is doing."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Mapping
from typing import Any, Literal

import anyio

from sandbox_server.sandbox.outcome import Outcome
from sandbox_server.sandbox.process import WorkerProcess
from sandbox_server.sandbox.protocol import Job, ProtocolError

__all__ = ["Pending", "Slot", "SlotState"]

SlotState = Literal["starting", "idle", "busy", "recycling", "gone"]

logger = logging.getLogger("sandbox_server.sandbox.pool")


class Pending:
    """A submitted job, from submission to outcome.

    Its task waits in :meth:`wait` for the next step: a worker assigned (``slot``), then the outcome; the pool's
    closing ends either wait (``closed``).
    """

    def __init__(self, job: Job, job_id: int) -> None:
        self.job = job
        self.id = job_id
        self.slot: Slot | None = None
        self.outcome: Outcome | None = None
        self.closed = False
        self.dispatched_at = 0.0
        self.host_calls: set[anyio.CancelScope] = set()
        """The scopes of the host calls in progress for this job, cancelled when it ends."""
        self._waiter: asyncio.Future[None] | None = None

    @property
    def assigned(self) -> bool:
        """A worker was handed over, or the pool closed first."""
        return self.slot is not None or self.closed

    @property
    def done(self) -> bool:
        """The job has its outcome, or the pool closed first."""
        return self.outcome is not None or self.closed

    async def wait(self, deadline: float) -> None:
        """Wait for the next step (see the class), or until ``deadline`` on the event loop's clock (``math.inf``:
        no limit), whichever comes first; the caller tells which from the attributes."""
        loop = asyncio.get_running_loop()
        self._waiter = waiter = loop.create_future()
        timer = None if deadline == math.inf else loop.call_at(deadline, _wake, waiter)
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()

    def assign(self, slot: Slot) -> None:
        self.slot = slot
        self._wake()

    def finish(self, outcome: Outcome) -> None:
        if not self.done:
            self.outcome = outcome
            self._wake()
        self.cancel_host_calls()

    def close(self) -> None:
        """The pool shut down before the job got an outcome."""
        self.closed = True
        self._wake()
        self.cancel_host_calls()

    def cancel_host_calls(self) -> None:
        """Stop every host call of this job still in progress (the job has ended, one way or another)."""
        for scope in list(self.host_calls):
            scope.cancel()

    def _wake(self) -> None:
        if self._waiter is not None:
            _wake(self._waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Slot:
    """One worker process and what it is doing."""

    def __init__(self, worker: WorkerProcess) -> None:
        self.worker = worker
        self.state: SlotState = "starting"
        self.job: Pending | None = None
        self.became_ready = False
        self.abandoned = False  # killed on purpose: a deadline or a cancellation
        self.settled = anyio.Event()  # first ready, or death before it
        self.pressed_job: int | None = None  # the job during which the worker said memory was running short
        self.spawned_at = time.perf_counter()

    async def follow(
        self, handle: Callable[[Slot, dict[str, Any]], bool], allowances: Mapping[SlotState, float]
    ) -> None:
        """Hand the worker's messages to ``handle`` as they arrive, until it returns False, the slot is gone, or the
        messages end (the process died, or broke the protocol).

        In a state of ``allowances`` the worker has that many seconds from its last message to send the next one,
        or it is given up.

        Raises:
            Exception: What ``handle`` raised, or what stopped the reading.
        """
        worker = self.worker
        if self.state == "gone":
            return
        loop = asyncio.get_running_loop()
        following: asyncio.Future[None] = loop.create_future()
        watchdog: asyncio.TimerHandle | None = None

        def stop(error: Exception | None = None) -> None:
            if following.done():
                return
            if error is None:
                following.set_result(None)
            else:
                following.set_exception(error)

        def watch() -> None:
            nonlocal watchdog
            if watchdog is not None:
                watchdog.cancel()
            limit = allowances.get(self.state)
            watchdog = None if limit is None else loop.call_later(limit, stalled, limit)

        def stalled(limit: float) -> None:
            if not following.done():
                logger.warning(
                    "worker %d sent no ready within %s s of its last message; replacing it", worker.pid, limit
                )
                stop()

        def on_message(message: dict[str, Any]) -> None:
            if following.done():
                return
            try:
                if not handle(self, message) or self.state == "gone":
                    stop()
                    return
            except Exception as exc:
                stop(exc)
                return
            watch()

        def on_end(error: Exception | None) -> None:
            if isinstance(error, ProtocolError) and not following.done():
                logger.error("worker %d broke the protocol", worker.pid, exc_info=error)
                error = None
            stop(error)

        watch()
        worker.listen(on_message, on_end)
        try:
            await following
        finally:
            if watchdog is not None:
                watchdog.cancel()
