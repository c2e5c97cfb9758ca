"""Shutdown and worker death over the real stdio transport: every call received is answered, the process exits
with status 0, and no worker process outlives the server."""

from __future__ import annotations

import os
import signal

import anyio
import pytest

from benchmarks.procfs import children, workers

from .wire import WireSession, is_gone, open_session, process_state

pytestmark = pytest.mark.anyio

SLEEP_300_MS = "await new Promise(resolve => setTimeout(resolve, 300)); 'slept'"


async def started(session: WireSession, count: int) -> list[int]:
    """Every process the server started (its workers, and its chart renderer when installed) once ``count``
    workers run: all of them must be gone, and reaped, once the server has exited."""
    await workers_of(session, count)
    return children(session.pid)


async def workers_of(session: WireSession, count: int) -> list[int]:
    """The server's worker pids once ``count`` of them run."""
    while True:
        if len(pids := workers(session.pid)) >= count:
            return pids
        await anyio.sleep(0.02)  # polling /proc until the pool has started them


async def submit_sleepers(session: WireSession, count: int) -> list[int]:
    return [
        await session.submit("tools/call", {"name": "execute_js", "arguments": {"code": SLEEP_300_MS}})
        for _ in range(count)
    ]


async def assert_all_slept(session: WireSession, request_ids: list[int]) -> None:
    for request_id in request_ids:
        reply = await session.reply(request_id)
        assert reply["result"]["isError"] is False, reply
        assert reply["result"]["structuredContent"]["result"] == "slept"


async def test_closing_stdin_answers_every_call_in_flight_then_exits_cleanly_without_workers() -> None:
    async with open_session(workers=2) as session:
        with anyio.fail_after(60):
            workers = await started(session, 2)
            request_ids = await submit_sleepers(session, 3)
            await session.close_stdin()
            await assert_all_slept(session, request_ids)
            assert await session.wait_for_exit() == 0
    assert all(is_gone(pid) for pid in workers), [pid for pid in workers if not is_gone(pid)]


async def test_sigterm_answers_every_call_in_flight_then_exits_cleanly_without_workers() -> None:
    async with open_session(workers=2) as session:
        with anyio.fail_after(60):
            workers = await started(session, 2)
            request_ids = await submit_sleepers(session, 3)
            # The calls must have been read before the signal: a ping sent after them is answered once they were.
            assert (await session.request("ping"))["result"] == {}
            session.process.send_signal(signal.SIGTERM)
            # A client that keeps writing does not keep the server alive.
            await session.submit("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})
            await assert_all_slept(session, request_ids)
            # stdin stays open: the server must not wait for the client to close it.
            assert await session.wait_for_exit() == 0
    assert all(is_gone(pid) for pid in workers), [pid for pid in workers if not is_gone(pid)]


async def test_sigterm_on_an_idle_server_exits_at_once_without_workers() -> None:
    async with open_session(workers=2) as session:
        with anyio.fail_after(30):
            workers = await started(session, 2)
            session.process.send_signal(signal.SIGTERM)
            assert await session.wait_for_exit() == 0
    assert all(is_gone(pid) for pid in workers), [(pid, process_state(pid)) for pid in workers if not is_gone(pid)]


async def test_a_cancelled_call_does_not_hold_up_shutdown() -> None:
    # The server never answers a cancelled request; waiting for its answer would take the whole drain timeout.
    async with open_session(workers=1) as session:
        with anyio.fail_after(30):
            workers = await started(session, 1)
            request_id = await session.submit(
                "tools/call", {"name": "execute_js", "arguments": {"code": "while (true) {}", "timeout_ms": 60_000}}
            )
            await session.notify("notifications/cancelled", {"requestId": request_id, "reason": "changed my mind"})
            assert (await session.request("ping"))["result"] == {}
            await session.close_stdin()
            assert await session.wait_for_exit() == 0
            assert session.replies[request_id] == []
    assert all(is_gone(pid) for pid in workers), [(pid, process_state(pid)) for pid in workers if not is_gone(pid)]


async def test_a_worker_killed_mid_call_reports_crashed_and_the_next_call_works() -> None:
    async with open_session(workers=1) as session:
        with anyio.fail_after(60):
            (worker,) = await workers_of(session, 1)
            params = {
                "name": "execute_js",
                "arguments": {"code": "while (true) {}", "timeout_ms": 30_000},
                "_meta": {"progressToken": "spin"},
            }
            request_id = await session.submit("tools/call", params)
            # Progress is reported only while the job runs on the worker.
            await session.wait_until(
                lambda: any(note["method"] == "notifications/progress" for note in session.notifications)
            )
            os.kill(worker, signal.SIGKILL)
            result = (await session.reply(request_id))["result"]
            assert result["isError"] is True
            assert result["structuredContent"]["error"]["kind"] == "crashed"
            assert "SIGKILL" in result["content"][0]["text"]
            after = await session.call("execute_js", {"code": "'still here'"})
            assert after["result"]["structuredContent"]["result"] == "still here"
            (replacement,) = await workers_of(session, 1)
            assert replacement != worker
            assert is_gone(worker)


async def test_a_second_sigterm_during_the_drain_changes_nothing_and_every_call_is_answered() -> None:
    async with open_session(workers=1) as session:
        with anyio.fail_after(60):
            workers = await started(session, 1)
            request_ids = await submit_sleepers(session, 3)  # about a second of work on the one worker
            assert (await session.request("ping"))["result"] == {}
            session.process.send_signal(signal.SIGTERM)
            await session.wait_for_log("received signal 15; finishing requests in progress")
            session.process.send_signal(signal.SIGTERM)
            await assert_all_slept(session, request_ids)
            assert await session.wait_for_exit() == 0
            assert "received signal 15 again; still draining" in session.log
    assert all(is_gone(pid) for pid in workers), [(pid, process_state(pid)) for pid in workers if not is_gone(pid)]
