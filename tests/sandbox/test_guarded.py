"""What ends a job in the worker (:func:`sandbox_server.sandbox.worker.memory.guarded`): its deadline, the memory
watch or a pause, each cancelling the job's task and raising what it stands for; a stop that comes once the job has
its value changes nothing; a cancellation from outside stays a cancellation."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from sandbox_server import platform
from sandbox_server.sandbox.worker import memory
from sandbox_server.sandbox.worker.engine import DataLimitNear, Paused
from sandbox_server.sandbox.worker.isolate import Isolate
from sandbox_server.sandbox.worker.memory import DataBounds, guarded

pytestmark = pytest.mark.anyio

FAR_S = 60.0
"""A deadline no test reaches."""


class _Isolate:
    """The one thing the watch asks an isolate: whether its heap limit was reached."""

    def __init__(self, reached: bool = False) -> None:
        self.reached = reached

    def memory_limit_reached(self) -> bool:
        return self.reached


def _isolate(reached: bool = False) -> Isolate:
    return cast("Isolate", _Isolate(reached))


class _Job:
    """A job that waits until released (or cancelled) and records how it ended."""

    def __init__(self) -> None:
        self.release: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.started = asyncio.Event()
        self.cancelled = False

    async def run(self) -> str:
        self.started.set()
        try:
            return await self.release
        except asyncio.CancelledError:
            self.cancelled = True
            raise


def _deadline(seconds: float) -> float:
    return asyncio.get_running_loop().time() + seconds


async def test_a_job_that_ends_gives_its_value_and_leaves_no_timer_behind() -> None:
    job = _Job()
    job.release.set_result("done")
    assert await guarded(_isolate(), job.run(), _deadline(FAR_S), None, lambda: None) == "done"
    # Cancelled timers stay in the loop's heap until their time; none of guarded's own may still be live.
    scheduled = cast("Any", asyncio.get_running_loop())._scheduled
    live = [handle for handle in scheduled if not handle.cancelled() and _of_guarded(handle)]
    assert live == []


def _of_guarded(handle: asyncio.TimerHandle) -> bool:
    callback = cast("Any", handle)._callback
    return "guarded." in getattr(callback, "__qualname__", "")


async def test_the_deadline_cancels_the_job_and_raises_timeout() -> None:
    job = _Job()
    with pytest.raises(TimeoutError):
        await guarded(_isolate(), job.run(), _deadline(0.02), None, lambda: None)
    assert job.cancelled


async def test_a_pause_cancels_the_job_and_raises_paused() -> None:
    job = _Job()
    pause: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    running = asyncio.ensure_future(guarded(_isolate(), job.run(), _deadline(FAR_S), None, lambda: None, pause))
    await job.started.wait()
    pause.set_result(None)
    with pytest.raises(Paused):
        await running
    assert job.cancelled


async def test_a_pause_after_the_job_has_its_value_changes_nothing() -> None:
    job = _Job()
    pause: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    running = asyncio.ensure_future(guarded(_isolate(), job.run(), _deadline(FAR_S), None, lambda: None, pause))
    await job.started.wait()
    # The job's value is set first in this turn of the loop, so the job's task ends before the pause's callback runs.
    job.release.set_result("done")
    pause.set_result(None)
    assert await running == "done"
    assert not job.cancelled


async def test_a_heap_limit_that_stays_reached_stops_the_job_for_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "STUCK_AFTER_LIMIT_S", 0.03)
    job = _Job()
    with pytest.raises(DataLimitNear):
        await guarded(_isolate(reached=True), job.run(), _deadline(FAR_S), None, lambda: None)
    assert job.cancelled


async def test_the_data_size_warns_once_then_stops_the_job(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = iter([10, 60, 70, 200])
    monkeypatch.setattr(platform, "data_size", lambda: next(sizes))
    warnings: list[None] = []
    job = _Job()
    bounds = DataBounds(baseline=0, pressure_at=50, stop_at=150)
    with pytest.raises(DataLimitNear):
        await guarded(_isolate(), job.run(), _deadline(FAR_S), bounds, lambda: warnings.append(None))
    assert job.cancelled
    assert warnings == [None]


async def test_a_cancellation_from_outside_stays_one_and_ends_the_job() -> None:
    job = _Job()
    running = asyncio.ensure_future(guarded(_isolate(), job.run(), _deadline(FAR_S), None, lambda: None))
    await job.started.wait()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert job.cancelled


async def test_what_the_job_raises_passes_through() -> None:
    async def failing() -> None:
        raise ValueError("the engine said no")

    with pytest.raises(ValueError, match="the engine said no"):
        await guarded(_isolate(), failing(), _deadline(FAR_S), None, lambda: None)
