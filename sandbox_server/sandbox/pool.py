"""WorkerPool: worker processes prepared in advance, a FIFO queue in front of them, and the wall-clock deadline.

A job goes to an idle worker that has announced ``ready`` (a fresh isolate waits in it), or waits in the queue.
The pool owns the deadline: ``timeout_ms + GRACE_MS`` after dispatch it SIGKILLs the worker and answers
``timeout``; the worker's own, shorter timeout normally answers first with the output captured so far. Each
worker has a supervisor task that follows its messages (each is handled as it arrives, in the pipe's callback, and
wakes the job's task only with its outcome), keeps its stderr, and, when the process ends or misbehaves (no
``ready`` soon after an outcome: disposing of the isolate or preparing the next one hangs), reaps it, tells its job
how it died, and starts a replacement in the background. A job has one timer at a time: its wait in the queue, then
its deadline. The pool never imports the engine.

The background tasks live in a task group owned by a host task of their own, so that ``start()`` and
``aclose()`` can be called from anywhere without tying a caller's task to the pool's lifetime. The pool
runs on asyncio, like mini-racer and the server.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import math
import time
from types import TracebackType
from typing import Any

import anyio
import anyio.abc

from sandbox_server.errors import PoolClosedError, SandboxError
from sandbox_server.sandbox.host_answers import answer_host_call
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import (
    Outcome,
    busy_error,
    crash_error,
    failure_outcome,
    memory_error,
    timeout_error,
)
from sandbox_server.sandbox.process import WorkerProcess
from sandbox_server.sandbox.protocol import PRIME_MESSAGE, Job, ProtocolError, outcome_from_message, run_message
from sandbox_server.sandbox.slots import Pending, Slot

__all__ = ["GRACE_MS", "READY_TIMEOUT_S", "STARTUP_TIMEOUT_S", "WorkerPool"]

logger = logging.getLogger(__name__)

GRACE_MS = 250
"""Time beyond a job's own limit before the pool kills its worker; the worker's own timeout answers within it."""
READY_TIMEOUT_S = 3.0
"""How long a worker may take, after sending an outcome, to dispose of the isolate and prepare the next one."""
STARTUP_TIMEOUT_S = 30.0
"""How long a new worker process may take to announce its first ``ready``."""
MAX_RESPAWN_DELAY_S = 5.0
"""Upper bound of the back-off between attempts when workers keep dying before they become ready."""


class WorkerPool:
    """A fixed number of JavaScript worker processes running jobs, each in a fresh isolate.

    Use ``await start()`` / ``await aclose()``, or ``async with WorkerPool(...) as pool``.

    Args:
        size: The number of worker processes.
        limits: Limits of every execution; defaults from :mod:`sandbox_server.settings`.
        max_queue_wait_s: How long a job may wait in the queue for a free worker before it is answered that the
            pool is busy.
    """

    def __init__(self, size: int, limits: SandboxLimits | None = None, *, max_queue_wait_s: float = math.inf) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self._size = size
        self._max_queue_wait_s = max_queue_wait_s
        self._limits = limits or SandboxLimits()
        self._slots: set[Slot] = set()
        self._idle: collections.deque[Slot] = collections.deque()
        self._queue: collections.deque[Pending] = collections.deque()
        self._ids = itertools.count(1)
        self._host: asyncio.Task[None] | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._closed = False
        self._close_done = anyio.Event()
        self._failed_starts = 0
        self._started = 0
        self._restarts = 0
        self._completed = 0
        self._versions: dict[str, str] = {}

    async def __aenter__(self) -> WorkerPool:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    @property
    def limits(self) -> SandboxLimits:
        """The limits every execution runs under."""
        return self._limits

    @property
    def versions(self) -> dict[str, str]:
        """``{"v8": ..., "miniRacer": ...}`` as reported by the workers; empty before the first is ready."""
        return dict(self._versions)

    async def start(self) -> None:
        """Start the worker processes and wait until each has an isolate ready.

        Raises:
            SandboxError: A worker could not start (its stderr tail is logged), or it took too long.
            PoolClosedError: The pool was closed already.
        """
        if self._closed:
            raise PoolClosedError
        if self._host is not None:
            return
        opened = anyio.Event()
        self._host = asyncio.get_running_loop().create_task(self._host_main(opened))
        self._host.add_done_callback(self._host_ended)
        await opened.wait()
        slots = [await self._add_worker() for _ in range(self._size)]
        try:
            with anyio.fail_after(STARTUP_TIMEOUT_S):
                for slot in slots:
                    await slot.settled.wait()
                    if not slot.became_ready:
                        raise SandboxError(f"a JavaScript worker failed to start: {slot.worker.last_words()}")
        except TimeoutError as exc:
            await self.aclose()
            raise SandboxError(f"the JavaScript workers did not start within {STARTUP_TIMEOUT_S} s") from exc
        except BaseException:
            await self.aclose()
            raise
        logger.info("%d JavaScript workers ready", self._size)

    async def aclose(self) -> None:
        """Kill and reap every worker; jobs still waiting or running raise PoolClosedError. Idempotent."""
        if self._closed:
            with anyio.CancelScope(shield=True):
                await self._close_done.wait()
            return
        self._closed = True
        with anyio.CancelScope(shield=True):
            for pending in self._queue:
                pending.close()
            self._queue.clear()
            for slot in self._slots:
                if slot.job is not None:
                    slot.job.close()
                slot.worker.kill()
            if self._tg is not None:
                self._tg.cancel_scope.cancel()
            if self._host is not None:
                with contextlib.suppress(Exception):  # already logged by _host_ended
                    await self._host
            for slot in list(self._slots):
                await slot.worker.reap()
            self._slots.clear()
            self._idle.clear()
            self._close_done.set()

    async def run(self, job: Job) -> Outcome:
        """Run ``job`` on the next free worker and return its outcome.

        Failures of the code (syntax, exceptions, timeouts, memory, a crashed worker) are outcomes, not
        exceptions, and so is a wait for a worker longer than ``max_queue_wait_s`` (``busy``). If the calling
        task is cancelled, a queued job leaves the queue and a running job's
        worker is killed and replaced.

        Raises:
            PoolClosedError: The pool was shut down, before or while the job waited or ran.
            SandboxError: The pool was never started, or its supervision failed.
        """
        if self._closed:
            raise PoolClosedError
        if self._host is None or self._host.done():
            raise SandboxError("the JavaScript worker pool is not running (never started, or it failed)")
        pending = Pending(job, next(self._ids))
        slot = self._take_idle()
        if slot is None:
            ahead = len(self._queue)
            self._queue.append(pending)
            try:
                await pending.wait(self._deadline(self._max_queue_wait_s))
                if not pending.assigned:
                    self._queue.remove(pending)
                    return failure_outcome(busy_error(self._max_queue_wait_s, ahead), 0.0)
            except BaseException:
                if pending.slot is None:
                    self._queue.remove(pending)
                elif pending.slot.job is pending:
                    # A worker was handed over as the cancellation arrived: pass it on unused.
                    pending.slot.job = None
                    self._release(pending.slot)
                raise
            if pending.closed or pending.slot is None:
                raise PoolClosedError
            slot = pending.slot
        return await self._dispatch(slot, pending)

    def stats(self) -> dict[str, int]:
        """Counts for health checks and logs.

        ``size`` workers configured; ``idle`` ready for a job; ``busy`` running one; ``starting`` starting or
        preparing their next isolate; ``queued`` jobs waiting; ``started`` processes started so far;
        ``restarts`` of them replacements; ``completed`` jobs that got an outcome.
        """
        states = collections.Counter(slot.state for slot in self._slots)
        return {
            "size": self._size,
            "idle": states["idle"],
            "busy": states["busy"],
            "starting": states["starting"] + states["recycling"],
            "queued": len(self._queue),
            "started": self._started,
            "restarts": self._restarts,
            "completed": self._completed,
        }

    def pids(self) -> list[int]:
        """Process ids of the live worker processes."""
        return sorted(slot.worker.pid for slot in self._slots if slot.state != "gone")

    # --- dispatch --------------------------------------------------------------------------------------

    def _take_idle(self) -> Slot | None:
        while self._idle:
            slot = self._idle.popleft()
            if slot.state == "idle":
                return slot
        return None

    def prime(self) -> None:
        """Tell the idle worker next in line that a job is coming (:mod:`sandbox_server.transport.hints`): it wakes its
        isolate up meanwhile. Nothing when no worker is idle (a busy one is awake) or the word cannot go at once."""
        if self._closed:
            return
        for slot in self._idle:
            if slot.state == "idle":
                with contextlib.suppress(anyio.BrokenResourceError):  # its supervisor reports a worker that died
                    slot.worker.send_now(PRIME_MESSAGE)
                return

    def spare(self) -> int:
        """How many workers are free for the next job."""
        return len({id(slot) for slot in self._idle if slot.state == "idle"})

    def _release(self, slot: Slot) -> None:
        """``slot`` can take a job: give it to the oldest queued one, or mark it idle."""
        if self._closed or slot.state == "gone":
            return
        if self._queue:
            pending = self._queue.popleft()
            slot.state = "busy"
            slot.job = pending
            pending.assign(slot)
            return
        slot.state = "idle"
        self._idle.append(slot)

    async def _dispatch(self, slot: Slot, pending: Pending) -> Outcome:
        job = pending.job
        pending.dispatched_at = time.perf_counter()
        deadline = self._deadline((job.timeout_ms + GRACE_MS) / 1000)
        if slot.state != "gone":
            slot.state = "busy"
            slot.job = pending
        try:
            if not pending.done:
                # If the worker has just died, its supervisor reports how.
                with contextlib.suppress(anyio.BrokenResourceError):
                    await slot.worker.send(run_message(pending.id, job, len(self._queue), self.spare()))
            if job.control is not None:
                job.control.attach(lambda: self._ask_pause(slot, pending))
            if not pending.done:
                await pending.wait(deadline)
        except BaseException:
            if pending.outcome is None:
                self._abandon(slot, pending, "its job was cancelled")
            raise
        finally:
            if job.control is not None:
                job.control.detach()
        if pending.closed:
            raise PoolClosedError
        self._completed += 1
        if pending.outcome is not None:
            return pending.outcome
        self._abandon(slot, pending, f"its job passed the deadline of {job.timeout_ms} + {GRACE_MS} ms")
        return failure_outcome(timeout_error(job.timeout_ms), self._elapsed_ms(pending))

    def _ask_pause(self, slot: Slot, pending: Pending) -> None:
        """Ask ``slot``'s worker to stop ``pending`` with its journal (see ``RunControl``)."""
        if slot.job is pending and slot.state == "busy" and self._tg is not None:
            self._tg.start_soon(self._send_quietly, slot, {"op": "pause", "id": pending.id})

    @staticmethod
    async def _send_quietly(slot: Slot, message: dict[str, Any]) -> None:
        with contextlib.suppress(anyio.BrokenResourceError):  # its supervisor reports a worker that died
            await slot.worker.send(message)

    @staticmethod
    def _deadline(seconds: float) -> float:
        """The moment ``seconds`` from now on the event loop's clock (``math.inf`` for ever)."""
        return asyncio.get_running_loop().time() + seconds

    def _abandon(self, slot: Slot, pending: Pending, why: str) -> None:
        """Kill the worker running ``pending``, and end the host calls its code left in progress; its supervisor
        replaces the worker."""
        pending.cancel_host_calls()
        if slot.job is pending:
            slot.job = None
        slot.abandoned = True
        if slot.state != "gone":
            logger.info("killing worker %d: %s", slot.worker.pid, why)
            slot.state = "gone"
        slot.worker.kill()

    @staticmethod
    def _elapsed_ms(pending: Pending) -> float:
        return (time.perf_counter() - pending.dispatched_at) * 1000

    # --- supervision -----------------------------------------------------------------------------------

    async def _host_main(self, opened: anyio.Event) -> None:
        async with anyio.create_task_group() as tg:
            self._tg = tg
            opened.set()
            await anyio.sleep_forever()

    def _host_ended(self, host: asyncio.Task[None]) -> None:
        if not host.cancelled() and host.exception() is not None:
            logger.error("the worker pool's supervision failed", exc_info=host.exception())
        if not self._closed:
            for pending in self._queue:
                pending.close()
            self._queue.clear()
            for slot in self._slots:
                if slot.job is not None:
                    slot.job.close()

    async def _add_worker(self, *, replacement: bool = False) -> Slot:
        """Start a worker process and its supervisor (after a back-off if workers keep failing to start)."""
        assert self._tg is not None
        if self._failed_starts:
            await anyio.sleep(min(MAX_RESPAWN_DELAY_S, 0.1 * 2 ** (self._failed_starts - 1)))
        with anyio.CancelScope(shield=True):
            worker = await WorkerProcess.spawn(self._limits)
        slot = Slot(worker)
        self._slots.add(slot)
        self._started += 1
        if replacement:
            self._restarts += 1
        self._tg.start_soon(self._supervise, slot)
        return slot

    async def _replace(self) -> None:
        try:
            await self._add_worker(replacement=True)
        except OSError:
            logger.exception("could not start a replacement worker")
            self._failed_starts += 1
            if not self._closed and self._tg is not None:
                self._tg.start_soon(self._replace)

    async def _supervise(self, slot: Slot) -> None:
        try:
            await self._follow(slot)
        except Exception:
            # A fault here must not take the other workers' supervision down with it.
            logger.exception("supervising worker %d failed; replacing it", slot.worker.pid)
        finally:
            with anyio.CancelScope(shield=True):
                await self._retire(slot)

    async def _follow(self, slot: Slot) -> None:
        """Handle ``slot``'s messages until its process ends or must be replaced."""
        await slot.follow(self._on_message, {"starting": STARTUP_TIMEOUT_S, "recycling": READY_TIMEOUT_S})

    def _on_message(self, slot: Slot, message: dict[str, Any]) -> bool:
        """Act on one message; False when the worker must be replaced."""
        op = message["op"]
        if op == "ready" and slot.state in ("starting", "recycling"):
            if slot.state == "starting":
                slot.became_ready = True
                self._failed_starts = 0
                self._versions = {"v8": str(message.get("v8")), "miniRacer": str(message.get("miniRacer"))}
                logger.debug(
                    "worker %d ready %.0f ms after it was started",
                    slot.worker.pid,
                    (time.perf_counter() - slot.spawned_at) * 1000,
                )
                slot.settled.set()
            self._release(slot)
            return True
        pending = slot.job
        if op == "pressure" and slot.state == "busy" and pending is not None and message.get("id") == pending.id:
            slot.pressed_job = pending.id
            return True
        if op == "retire" and slot.state == "recycling":
            # Memory outlived an isolate, or the worker ran its share of jobs: a fresh process takes over.
            logger.info("worker %d retires: %s", slot.worker.pid, message.get("reason"))
            slot.abandoned = True
            return False
        if op == "host" and slot.state == "busy" and pending is not None and message.get("id") == pending.id:
            assert self._tg is not None
            self._tg.start_soon(answer_host_call, slot, pending, message)
            return True
        if op == "outcome" and slot.state == "busy" and pending is not None and message.get("id") == pending.id:
            slot.job = None
            slot.state = "recycling"
            try:
                pending.finish(outcome_from_message(message))
            except ProtocolError as exc:
                logger.error("worker %d sent a malformed outcome: %s", slot.worker.pid, exc)
                pending.finish(failure_outcome(crash_error(str(exc)), self._elapsed_ms(pending)))
                return False
            return True
        if slot.state != "gone":
            logger.warning("worker %d sent an unexpected %r message while %s", slot.worker.pid, op, slot.state)
        return False

    async def _retire(self, slot: Slot) -> None:
        """Reap a worker that ended or must go, answer its job, and start its replacement."""
        slot.state = "gone"
        pending, slot.job = slot.job, None
        if not slot.became_ready:
            self._failed_starts += 1
        if not self._closed and self._tg is not None:
            self._tg.start_soon(self._replace)
        await slot.worker.reap()
        self._slots.discard(slot)
        slot.settled.set()
        death = slot.worker.death(self._limits.memory_limit_mb)
        if pending is not None and pending.id == slot.pressed_job and death["kind"] == "crashed":
            # A native crash (ICU's when memory outside the heap runs out) right after the worker reported its
            # data size close to the limit.
            death = memory_error(self._limits.memory_limit_mb)
        if pending is not None:
            pending.finish(failure_outcome(death, self._elapsed_ms(pending)))
        if not self._closed:
            level = logging.INFO if slot.abandoned else logging.WARNING
            logger.log(level, "worker %d ended (%s): %s", slot.worker.pid, death["message"], slot.worker.last_words())
