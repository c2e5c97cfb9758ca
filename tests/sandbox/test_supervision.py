"""How the pool keeps its workers: deadlines it enforces by killing, deaths, cancellation, shutdown."""

from __future__ import annotations

import os
import signal
import sys

import anyio
import pytest

from sandbox_server.errors import PoolClosedError
from sandbox_server.sandbox import Job, Outcome, SandboxLimits, WorkerPool
from sandbox_server.sandbox import pool as pool_module
from sandbox_server.sandbox import process as process_module

from .conftest import WAIT_S, all_idle, is_running, open_fds, run_js

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("Promise.resolve().then(() => { while (true) {} }); 1", id="microtask"),
        pytest.param("await null; while (true) {}", id="await-continuation"),
        pytest.param("setTimeout(() => { while (true) {} }, 1); 1", id="timer-callback"),
        pytest.param("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)", id="atomics-wait"),
    ],
)
async def test_a_loop_the_engine_timeout_cannot_stop_times_out_and_the_pool_serves_the_next_job(
    pool: WorkerPool, code: str
) -> None:
    # Whether the worker recovers by closing the isolate or the pool kills and replaces it depends on which of
    # the two deadlines acts first; either way the call is a timeout and the pool keeps serving.
    outcome = await run_js(pool, code, timeout_ms=200)
    assert outcome["error"] is not None
    assert outcome["error"]["kind"] == "timeout"
    assert outcome["error"].get("limitMs") == 200
    assert outcome["durationMs"] >= 200
    assert (await run_js(pool, "1 + 1"))["result"] == 2


async def test_an_array_that_makes_v8_abort_the_process_is_a_memory_error_and_the_worker_is_replaced() -> None:
    async with WorkerPool(1, SandboxLimits(memory_limit_mb=32)) as small:
        (pid,) = small.pids()
        outcome = await run_js(small, "new Array(1e9).fill(0)", timeout_ms=15_000)
        assert outcome["error"] is not None
        assert outcome["error"]["kind"] in ("memory", "crashed")
        assert (await run_js(small, "1 + 1"))["result"] == 2
        assert small.pids() != [pid]
        assert small.stats()["restarts"] == 1


async def test_a_worker_killed_from_outside_mid_job_gives_crashed_and_the_next_job_works() -> None:
    async with WorkerPool(1) as single:
        (pid,) = single.pids()
        outcomes: list[Outcome] = []

        async def loop_forever() -> None:
            outcomes.append(await run_js(single, "while (true) {}", timeout_ms=10_000))

        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                group.start_soon(loop_forever)
                await anyio.wait_all_tasks_blocked()
                assert single.stats()["busy"] == 1
                os.kill(pid, signal.SIGKILL)
        (outcome,) = outcomes
        assert outcome["error"] is not None
        assert outcome["error"]["kind"] == "crashed"
        assert "SIGKILL" in str(outcome["error"]["message"])
        assert (await run_js(single, "1 + 1"))["result"] == 2
        assert not is_running(pid)


async def test_cancelling_a_running_job_kills_its_worker_and_frees_the_slot() -> None:
    async with WorkerPool(1) as single:
        (pid,) = single.pids()
        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                group.start_soon(single.run, Job("while (true) {}", None, 10_000))
                await anyio.wait_all_tasks_blocked()
                assert single.stats()["busy"] == 1
                group.cancel_scope.cancel()
        assert single.stats()["busy"] == 0
        assert (await run_js(single, "1 + 1"))["result"] == 2
        assert not is_running(pid)
        assert single.stats()["restarts"] == 1


async def test_cancelling_a_queued_job_removes_it_from_the_queue() -> None:
    async with WorkerPool(1) as single:
        (pid,) = single.pids()
        outcomes: list[Outcome] = []
        queued_scope = anyio.CancelScope()

        async def occupy() -> None:
            outcomes.append(await run_js(single, "const end = Date.now() + 300; while (Date.now() < end) {} 'first'"))

        async def wait_in_queue() -> None:
            with queued_scope:
                await single.run(Job("'never runs'", None, 1_000))

        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                group.start_soon(occupy)
                await anyio.wait_all_tasks_blocked()
                group.start_soon(wait_in_queue)
                await anyio.wait_all_tasks_blocked()
                assert single.stats()["queued"] == 1
                queued_scope.cancel()
                await anyio.wait_all_tasks_blocked()
                assert single.stats()["queued"] == 0
        outcomes.append(await run_js(single, "'after'"))
        assert [outcome["result"] for outcome in outcomes] == ["first", "after"]
        assert single.pids() == [pid]
        assert single.stats()["restarts"] == 0


async def test_jobs_beyond_the_pool_size_wait_their_turn_in_order() -> None:
    async with WorkerPool(1) as single:
        finished: list[int] = []

        async def job(number: int) -> None:
            outcome = await run_js(single, f"{number}")
            finished.append(int(outcome["result"]))

        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                for number in range(4):
                    group.start_soon(job, number)
                    await anyio.wait_all_tasks_blocked()
        assert finished == [0, 1, 2, 3]


async def test_a_worker_that_answers_but_never_gets_ready_again_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    _use_fake_worker(monkeypatch, "stuck-after-outcome")
    monkeypatch.setattr(pool_module, "READY_TIMEOUT_S", 0.2)
    async with WorkerPool(1) as single:
        (pid,) = single.pids()
        outcome = await run_js(single, "anything")
        assert outcome["result"] == "fake"
        # The second job waits for the replacement of the stuck worker.
        assert (await run_js(single, "anything"))["result"] == "fake"
        assert single.pids() != [pid]
        assert not is_running(pid)


async def test_a_worker_that_breaks_the_protocol_gives_crashed(monkeypatch: pytest.MonkeyPatch) -> None:
    _use_fake_worker(monkeypatch, "garbage")
    async with WorkerPool(1) as single:
        outcome = await run_js(single, "anything")
        assert outcome["error"] is not None
        assert outcome["error"]["kind"] == "crashed"


async def test_start_fails_with_the_reason_when_workers_cannot_start(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox_server.errors import SandboxError

    _use_fake_worker(monkeypatch, "exit")
    single = WorkerPool(1)
    with anyio.fail_after(WAIT_S), pytest.raises(SandboxError, match="refuses to start"):
        await single.start()
    with pytest.raises(PoolClosedError):
        await single.run(Job("1"))


async def test_aclose_kills_and_reaps_every_worker_and_leaves_no_open_files() -> None:
    fds_before = open_fds()
    pool = WorkerPool(2)
    with anyio.fail_after(WAIT_S):
        await pool.start()
        pids = pool.pids()
        assert len(pids) == 2
        await run_js(pool, "1 + 1")
        await pool.aclose()
        await pool.aclose()
    assert not any(is_running(pid) for pid in pids)
    assert pool.pids() == []
    assert open_fds() <= fds_before
    with pytest.raises(PoolClosedError):
        await pool.run(Job("1"))


async def test_aclose_ends_running_and_queued_jobs_with_pool_closed_error() -> None:
    pool = WorkerPool(1)
    errors: list[BaseException] = []

    async def submit() -> None:
        try:
            await pool.run(Job("while (true) {}", None, 10_000))
        except PoolClosedError as exc:
            errors.append(exc)

    with anyio.fail_after(WAIT_S):
        await pool.start()
        async with anyio.create_task_group() as group:
            group.start_soon(submit)
            group.start_soon(submit)
            await anyio.wait_all_tasks_blocked()
            assert pool.stats()["busy"] == 1
            assert pool.stats()["queued"] == 1
            await pool.aclose()
    assert len(errors) == 2


async def test_the_time_zone_comes_from_the_limits() -> None:
    async with WorkerPool(1, SandboxLimits(timezone="America/New_York")) as single:
        outcome = await run_js(single, "[Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(0).getHours()]")
        assert outcome["result"] == ["America/New_York", 19]


async def test_the_engine_locale_and_environment_do_not_depend_on_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.setenv("SANDBOX_AUTH_TOKEN", "secret")
    async with WorkerPool(1) as single:
        (pid,) = single.pids()
        variables = _environment_of(pid)
        outcome = await run_js(single, "[(1234.5).toLocaleString(), Intl.DateTimeFormat().resolvedOptions().locale]")
    assert outcome["result"] == ["1,234.5", "en-US"]
    assert "SANDBOX_AUTH_TOKEN" not in variables


def _environment_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as environ:
        items = environ.read().decode().split("\0")
    return dict(item.split("=", 1) for item in items if item)


def _use_fake_worker(monkeypatch: pytest.MonkeyPatch, behaviour: str) -> None:
    def command(limits: SandboxLimits) -> list[str]:
        return [sys.executable, "-m", "tests.sandbox.fake_worker", behaviour]

    monkeypatch.setattr(process_module, "worker_command", command)


def _recorded_run_requests(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """The run requests the pools of the test send to their workers, as they are sent."""
    sent: list[dict[str, object]] = []
    send = process_module.WorkerProcess.send

    async def recording_send(self: process_module.WorkerProcess, message: dict[str, object]) -> None:
        if message.get("op") == "run":
            sent.append(message)
        await send(self, message)

    monkeypatch.setattr(process_module.WorkerProcess, "send", recording_send)
    return sent


async def test_each_job_tells_its_worker_how_many_jobs_wait_behind_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker skips warming up its next isolate while jobs wait: the next one would come at once.
    sent = _recorded_run_requests(monkeypatch)
    async with WorkerPool(1) as single:
        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                for n in range(4):
                    group.start_soon(single.run, Job(f"{n} * 2"))
            assert (await run_js(single, "'after'"))["result"] == "after"
    backlogs = [message["backlog"] for message in sent]
    # The first job finds the worker idle (the others may or may not be queued yet when it is sent); the other
    # three wait behind it and leave one by one; the job after them finds the queue empty.
    assert backlogs[0] in (0, 3)
    assert backlogs[1:] == [2, 1, 0, 0]


async def test_each_job_tells_its_worker_how_many_other_workers_are_free(monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker that was not the last one free lets the call's answer go out before it prepares its next isolate.
    sent = _recorded_run_requests(monkeypatch)
    for size in (2, 1):
        async with WorkerPool(size) as started:
            await all_idle(started)
            assert (await run_js(started, "6 * 7"))["result"] == 42
    assert [message.get("spare", 0) for message in sent] == [1, 0]


async def test_a_job_that_waits_longer_than_the_queue_allows_is_answered_busy_without_running() -> None:
    async with WorkerPool(1, max_queue_wait_s=0.3) as small:
        async with anyio.create_task_group() as group:
            long_outcome: list[Outcome] = []

            async def long_job() -> None:
                long_outcome.append(await run_js(small, "await new Promise(r => setTimeout(r, 1500)); 'long'"))

            group.start_soon(long_job)
            with anyio.fail_after(WAIT_S):
                while small.stats()["busy"] < 1:  # noqa: ASYNC110
                    await anyio.sleep(0.01)  # polling until the one worker runs the long job
            waited = await run_js(small, "globalThis.ran = true; 'ran'")
            assert small.stats()["queued"] == 0
        assert waited["error"] is not None and waited["error"]["kind"] == "busy"
        assert "0.3 s" in str(waited["error"]["message"])
        assert waited["stdout"] == "" and "result" not in waited
        assert long_outcome[0]["result"] == "long"
        assert (await run_js(small, "'next'"))["result"] == "next"
