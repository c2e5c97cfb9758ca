"""Fixtures for the worker pool's tests: started pools, and a helper that runs one snippet."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from sandbox_server.sandbox import Job, Outcome, WorkerPool

WAIT_S = 20
"""Upper bound of any single wait in these tests; far above what each step needs."""


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    """A two-worker pool shared by the tests of a module."""
    async with WorkerPool(2) as started:
        yield started


@pytest.fixture(scope="module")
async def solo() -> AsyncIterator[WorkerPool]:
    """A one-worker pool shared by the tests of a module: consecutive jobs run in the same process."""
    async with WorkerPool(1) as started:
        yield started


async def run_js(pool: WorkerPool, code: str, timeout_ms: int = 2_000, input_json: str | None = None) -> Outcome:
    """Run ``code`` on ``pool``, bounded in time."""
    with anyio.fail_after(WAIT_S):
        return await pool.run(Job(code=code, input_json=input_json, timeout_ms=timeout_ms))


async def all_idle(pool: WorkerPool) -> None:
    """Wait (bounded) until every worker of ``pool`` has its isolate and waits for a job."""
    with anyio.fail_after(WAIT_S):
        while pool.stats()["idle"] < pool.stats()["size"]:  # noqa: ASYNC110
            await anyio.sleep(0.01)  # polling: the pool has no event for it


def is_running(pid: int) -> bool:
    """Whether ``pid`` names a live or zombie process (a reaped one is gone from /proc)."""
    return Path(f"/proc/{pid}").exists()


def open_fds() -> set[str]:
    """The file descriptors open in this process."""
    return set(os.listdir("/proc/self/fd"))
