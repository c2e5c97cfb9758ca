"""Memory one call leaves behind in its worker process must never reach the next call.

An isolate is disposed after every call, but some memory outlives it: a pending ``Atomics.waitAsync`` with a
time-out keeps a task of V8's platform until its time comes, and ICU's objects live outside the V8 heap. The
runtime's own timers wait in short slices, a worker whose data size grew retires for a fresh one, and memory
outside the heap that runs short ends the call as a ``memory`` error.
"""

from __future__ import annotations

import anyio
import pytest

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

# A quarter of a GiB: fits the default allowance of a fresh worker (about 400 MiB beyond its start-up size),
# not one that lost its memory to earlier calls.
INNOCENT = "const a = new Uint8Array(250 * 2 ** 20); a[a.length - 1] = 7; a[a.length - 1]"

WAITERS = """
for (let i = 0; i < 200000; i++) Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1e9);
'left'
"""

LONG_TIMERS = """
for (let i = 0; i < 100000; i++) setTimeout(() => {}, 1e9);
'never'
"""


async def innocent_calls_succeed_on_every_worker(sandbox: Sandbox) -> None:
    answers: list[object] = []

    async def ask() -> None:
        call = await sandbox.run(INNOCENT)
        assert call.is_error is False, call.text[:300]
        answers.append(call.structured["result"])

    async with anyio.create_task_group() as group:
        for _ in range(2):
            group.start_soon(ask)
    assert answers == [7, 7]


async def test_pending_waiters_left_by_calls_never_starve_a_later_call(sandbox: Sandbox) -> None:
    restarts = sandbox.app.pool.stats()["restarts"]
    for _ in range(12):
        call = await sandbox.run(WAITERS)
        assert call.structured["result"] == "left", call.text[:300]
    await innocent_calls_succeed_on_every_worker(sandbox)
    # The workers that gathered the leftovers made way for fresh ones.
    assert sandbox.app.pool.stats()["restarts"] > restarts
    await sandbox.assert_still_serving()


async def test_long_timers_of_calls_that_timed_out_leave_nothing_behind(sandbox: Sandbox) -> None:
    for _ in range(10):
        call = await sandbox.run(LONG_TIMERS, timeout_ms=300)
        assert call.kind == "timeout", call.text[:300]
    await innocent_calls_succeed_on_every_worker(sandbox)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(
            "const s = new Intl.Segmenter('en', { granularity: 'word' }); const keep = [];"
            "for (;;) keep.push(s.segment('hello world')[Symbol.iterator]());",
            id="segmenter-iterators",
        ),
        pytest.param(
            "const keep = []; for (let i = 0; ; i++) keep.push(new Intl.Collator('de', { sensitivity: 'base' }));",
            id="collators",
        ),
    ],
)
async def test_memory_outside_the_heap_running_out_is_a_memory_error(small_sandbox: Sandbox, code: str) -> None:
    call = await small_sandbox.run(code, timeout_ms=20_000)
    assert call.kind == "memory", call.text[:300]
    await small_sandbox.assert_still_serving()
