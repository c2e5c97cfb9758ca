"""Load: well-behaved calls queued behind runaway ones wait no longer than the queue explains, and the server's
event loop keeps answering ``ping`` within the issue's 100 ms throughout."""

from __future__ import annotations

import time
from typing import Any

import anyio
import pytest

from sandbox_server.sandbox.pool import GRACE_MS

from .wire import open_session

pytestmark = pytest.mark.anyio

WORKERS = 2
CALLS = 50
RUNAWAY_EVERY = 5  # every fifth call loops forever: 10 of 50
RUNAWAY_TIMEOUT_MS = 500
OWN_LIMIT_MS = 1_000
"""The well-behaved calls' timeout_ms, which bounds their own execution: each needs a few milliseconds."""
SLACK_MS = 1_000
"""What the queue adds besides runaway jobs: each job ahead costs its worker an isolate recycle and a few
milliseconds of execution, plus stdio and scheduling on a machine whose cores the runaway jobs keep busy
(measured on 2 cores: the last call finishes about 250 ms after the runaway jobs' share alone, 600 ms with
two more processes spinning beside the test)."""
PING_INTERVAL_S = 0.05
PING_LIMIT_MS = 100.0
"""The issue's requirement: ping is answered within 100 ms under load."""


def call_for(index: int) -> dict[str, Any]:
    if index % RUNAWAY_EVERY == 0:
        return {"name": "execute_js", "arguments": {"code": "while (true) {}", "timeout_ms": RUNAWAY_TIMEOUT_MS}}
    code = f"const xs = Array.from({{length: 1000}}, (_, i) => i * {index}); xs.reduce((a, b) => a + b, 0)"
    return {"name": "execute_js", "arguments": {"code": code, "timeout_ms": OWN_LIMIT_MS}}


def bound_ms(runaways_ahead: int) -> float:
    """The longest a well-behaved call may take from submission to answer.

    With FIFO dispatch to ``WORKERS`` workers that are never idle while a job waits, a job starts once the work
    submitted before it is done, shared over the workers: at most ``(work ahead) / WORKERS``. A runaway job
    holds its worker for at most its limit plus the pool's grace before the kill; the rest is slack.
    """
    return OWN_LIMIT_MS + runaways_ahead * (RUNAWAY_TIMEOUT_MS + GRACE_MS) / WORKERS + SLACK_MS


async def test_fifty_calls_with_ten_runaways_all_get_results_in_time_and_ping_stays_under_100_ms() -> None:
    async with open_session(workers=WORKERS) as session:
        # Warm up: the first call through a fresh server pays for imports and caches.
        with anyio.fail_after(30):
            assert (await session.call("execute_js", {"code": "1"}))["result"]["isError"] is False
        ping_ms: list[float] = []
        waits: dict[int, float] = {}
        results: dict[int, dict[str, Any]] = {}
        load_done = anyio.Event()

        async def ping_throughout() -> None:
            while not load_done.is_set():
                started = time.perf_counter()
                reply = await session.request("ping")
                ping_ms.append((time.perf_counter() - started) * 1000)
                assert reply["result"] == {}
                await anyio.sleep(PING_INTERVAL_S)

        async def await_call(index: int, request_id: int, submitted: float) -> None:
            results[index] = (await session.reply(request_id))["result"]
            waits[index] = (time.perf_counter() - submitted) * 1000

        with anyio.fail_after(120):
            async with anyio.create_task_group() as pinging:
                pinging.start_soon(ping_throughout)
                async with anyio.create_task_group() as calls:
                    for index in range(CALLS):
                        submitted = time.perf_counter()
                        request_id = await session.submit("tools/call", call_for(index))
                        calls.start_soon(await_call, index, request_id, submitted)
                load_done.set()

    assert len(results) == CALLS
    late = []
    for index, result in results.items():
        if index % RUNAWAY_EVERY == 0:
            assert result["isError"] is True
            assert result["structuredContent"]["error"]["kind"] == "timeout"
            continue
        assert result["isError"] is False, result
        runaways_ahead = (index + RUNAWAY_EVERY - 1) // RUNAWAY_EVERY
        if waits[index] > bound_ms(runaways_ahead):
            late.append((index, round(waits[index]), bound_ms(runaways_ahead)))
    assert not late, f"calls that waited longer than the queue explains (index, ms, bound): {late}"
    well_behaved = [wait for index, wait in waits.items() if index % RUNAWAY_EVERY]
    print(
        f"\nload: {len(ping_ms)} pings, max {max(ping_ms):.1f} ms; well-behaved calls waited at most "
        f"{max(well_behaved):.0f} ms; all {CALLS} calls answered in {max(waits.values()):.0f} ms"
    )
    assert len(ping_ms) >= 10
    assert max(ping_ms) < PING_LIMIT_MS, sorted(ping_ms)[-5:]
