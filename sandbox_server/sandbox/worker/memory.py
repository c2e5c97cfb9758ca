"""Memory outside the V8 heap: the worker's data-size allowance and the watch that stops a job that nears it.

Off-heap memory (ICU's objects, buffers) is invisible to the isolate's heap limit. On Linux the allowance is
``RLIMIT_DATA`` (an ArrayBuffer bomb then gets a catchable ``RangeError``) and the watch reads the data size every
10 ms; on systems without such a limit (see :mod:`sandbox_server.platform`) the watch is the only enforcement.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from sandbox_server import platform
from sandbox_server.sandbox.limits import MIB, SandboxLimits
from sandbox_server.sandbox.worker.engine import DataLimitNear, Paused
from sandbox_server.sandbox.worker.isolate import Isolate

__all__ = [
    "DATA_SLACK_MB",
    "STOP_RESERVE_BYTES",
    "WATCH_INTERVAL_S",
    "DataBounds",
    "MemoryWatch",
    "guarded",
    "limit_data_segment",
]

logger = logging.getLogger(__name__)

UNSTOPPABLE_GRACE_S = 0.25
"""Where no operating-system limit holds, how long a job stopped for memory may take to end before its worker exits."""
MEMORY_EXIT_STATUS = 3
"""The exit status of a worker that ended itself because a job would not stop using memory."""
DATA_SLACK_MB = 64
"""Room in the data allowance beyond the heap ceiling and the off-heap allowance, for the worker's own needs."""
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


@dataclass(frozen=True, slots=True)
class DataBounds:
    """Data sizes (bytes) that matter while a job runs: where the pool is warned and where the job is stopped."""

    baseline: int
    pressure_at: int
    stop_at: int
    enforced: bool = True
    """Whether the operating system refuses allocations past the allowance (otherwise only the watch stops them)."""


class MemoryWatch:
    """Readings of a running job's memory, one every :data:`WATCH_INTERVAL_S`: :meth:`due` says when to stop it.

    Memory outside the V8 heap (ICU's objects, buffers) is invisible to the heap limit; when it uses up
    ``RLIMIT_DATA``, ICU crashes the process instead of throwing. Stopping the job when the process's data size
    reaches ``bounds.stop_at`` turns that into a memory error; if the crash is quicker than this watch, the
    pool, told of the pressure (``on_pressure``, called once), reports it as one. A job still running
    :data:`STUCK_AFTER_LIMIT_S` after the heap limit was reached is inside one native call that termination cannot
    stop (``new Array(1e9).fill(0)``), which would only end in V8's fatal error much later: it is stopped too.
    """

    def __init__(self, isolate: Isolate, bounds: DataBounds | None, on_pressure: Callable[[], None]) -> None:
        self._isolate = isolate
        self._bounds = bounds
        self._on_pressure = on_pressure
        self._warned = False
        self._limit_seen_at: float | None = None

    def due(self, now: float) -> bool:
        """One reading at ``now`` (event-loop time): whether the job must be stopped for memory."""
        if self._isolate.memory_limit_reached():
            self._limit_seen_at = self._limit_seen_at or now
            if now - self._limit_seen_at >= STUCK_AFTER_LIMIT_S:
                return True
        bounds = self._bounds
        if bounds is None:
            return False
        size = platform.data_size()
        if not self._warned and size >= bounds.pressure_at:
            self._warned = True
            self._on_pressure()
        return size >= bounds.stop_at


async def guarded(
    isolate: Isolate,
    job: Coroutine[Any, Any, Any],
    deadline: float,
    bounds: DataBounds | None,
    on_pressure: Callable[[], None],
    pause: asyncio.Future[None] | None = None,
) -> Any:
    """``job``'s value, unless something ends it first: then the job is cancelled (which terminates the code).

    Raises:
        TimeoutError: ``deadline`` (event-loop time) passed first.
        DataLimitNear: The memory watch (:class:`MemoryWatch`) ended it.
        Paused: ``pause`` was resolved first (the pool asked for the job's journal).

    The job runs in a task of its own, and what ends it are callbacks on the event loop (a timer for the deadline,
    one per reading of the watch, the pause's), so that a job that ends within a reading costs one task and two
    timers. Whatever ends first wins: a stop asked once the job has its value changes nothing.
    """
    loop = asyncio.get_running_loop()
    task = loop.create_task(job)
    stopped: list[BaseException] = []
    watch = MemoryWatch(isolate, bounds, on_pressure)
    reading: asyncio.TimerHandle | None = None

    def stop(reason: BaseException) -> None:
        if not task.done() and not stopped:
            stopped.append(reason)
            task.cancel()

    def read_memory() -> None:
        nonlocal reading
        if not watch.due(loop.time()):
            reading = loop.call_later(WATCH_INTERVAL_S, read_memory)
            return
        stop(DataLimitNear())
        if bounds is not None and not bounds.enforced:
            # Nothing stops an allocation here but this watch: a job that does not end when told (one native call
            # that keeps taking memory) ends with its process, which the pool, told of the pressure, reports as
            # running out of memory.
            loop.call_later(UNSTOPPABLE_GRACE_S, _end_unless_done, task)

    def paused(_: asyncio.Future[None]) -> None:
        stop(Paused())

    expiry = loop.call_at(deadline, stop, TimeoutError())
    try:
        reading = loop.call_later(WATCH_INTERVAL_S, read_memory)
        if pause is not None:
            pause.add_done_callback(paused)
        return await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if not stopped or (current is not None and current.cancelling()):
            raise
        raise stopped[0] from None
    finally:
        expiry.cancel()
        if reading is not None:
            reading.cancel()
        if pause is not None:
            pause.remove_done_callback(paused)
        if not task.done():  # this task was cancelled, or the set-up failed: the job ends with it
            task.cancel()


def _end_unless_done(task: asyncio.Task[Any]) -> None:
    if not task.done():
        logger.error("a job kept using memory after it was stopped; ending the worker")
        sys.stderr.flush()
        os._exit(MEMORY_EXIT_STATUS)


def limit_data_segment(limits: SandboxLimits) -> DataBounds:
    """Bound memory outside the V8 heap (ArrayBuffer, WebAssembly.Memory): the data-size allowance of this process.

    Measured from the process's own data size once V8 and one isolate are up, so the limit does not depend on how much
    address space V8 reserves at start-up. Where the system has a data-size limit V8 respects (Linux), it is set to
    the allowance; elsewhere the watch alone enforces it.
    """
    baseline = platform.data_size()
    allowance_mb = limits.heap_ceiling_mb + limits.memory_limit_mb + DATA_SLACK_MB
    # Off a multiple of 32 MiB, so that buffers of 32 or 64 MiB leave the V8 heap room to grow when they
    # use up the limit: the code then gets a RangeError instead of V8 aborting the process.
    allowance = (allowance_mb + (16 - allowance_mb) % 32) * MIB
    limit = platform.limit_data_size(baseline + allowance)
    enforced = limit is not None
    if limit is None:
        limit = baseline + allowance
        logger.info("no operating-system data limit here (%s): the memory watch enforces the allowance", platform.NAME)
    logger.debug("data limit %d MiB (baseline %d MiB)", limit // MIB, baseline // MIB)
    return DataBounds(
        baseline=baseline,
        pressure_at=baseline + int((limit - baseline) * PRESSURE_SHARE),
        stop_at=limit - STOP_RESERVE_BYTES,
        enforced=enforced,
    )
