"""Calls started before the SDK has routed them (:mod:`sandbox_server.tools.early`): which requests are read ahead and
how, that a handler takes the run started for its request only when it runs the same job, and that a run nobody takes
is stopped (by its cancellation, by a handler with another job, or after the claim window)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from mcp import Client

from sandbox_server.app import App
from sandbox_server.registry import CallContext, request_key
from sandbox_server.results import ToolResult
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.server import build_server
from sandbox_server.settings import Settings
from sandbox_server.tools import early
from sandbox_server.tools.early import EarlyRuns, cancelled_request, outcome_of, read_call
from sandbox_server.tools.runs import JsRuns

from ..sandbox.conftest import WAIT_S, all_idle, run_js

pytestmark = pytest.mark.anyio


def _line(message: Any) -> bytes:
    return json.dumps(message).encode()


def _call(request_id: Any, arguments: Any, name: str = "execute_js", **params: Any) -> bytes:
    return _line({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                  "params": {"name": name, "arguments": arguments, **params}})  # fmt: skip


def _cancel(request_id: Any) -> bytes:
    return _line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})


# --- reading a request ahead of the SDK ----------------------------------------------------------------------------


def test_a_call_is_read_with_its_id_typed_tool_and_arguments() -> None:
    call = read_call(_call(7, {"code": "1+1"}))
    assert call is not None and (call.key, call.name, call.arguments) == (("int", 7), "execute_js", {"code": "1+1"})
    named = read_call(_call("7", {"code": "1"}))
    assert named is not None and named.key == ("str", "7") != call.key


@pytest.mark.parametrize(
    "data",
    [
        _call(None, {"code": "1"}),  # a notification, not a request
        _call(True, {"code": "1"}),  # ids are strings or integers
        _call(1.5, {"code": "1"}),
        _call(7, ["code"]),
        _call(7, {"code": "1"}, requestState="sealed"),  # a resumed run is never started early
        _call(7, {"code": "1"}, inputResponses={}),
        _line([json.loads(_call(7, {"code": "1"}))]),  # a batch
        _line({"id": 7, "method": "tools/call", "params": {"name": "execute_js", "arguments": {"code": "1"}}}),
        _call(7, {"code": "1", "input": "x" * early.MAX_EARLY_BYTES}),  # too long to read twice
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"execute_js","arguments":{"code":"input",'
        b'"input":' + b"[" * 10_000 + b"]" * 10_000 + b"}}}",  # deeper than Python parses: no word, no exception
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call"',  # not JSON
        _line({"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}}),
    ],
)
def test_what_is_not_one_small_tool_call_request_is_not_read(data: bytes) -> None:
    assert read_call(data) is None


def test_a_cancellation_names_the_request_it_cancels() -> None:
    assert cancelled_request(_cancel(7)) == ("int", 7)
    assert cancelled_request(_cancel("a")) == ("str", "a")
    assert cancelled_request(_cancel(None)) is None
    assert cancelled_request(_call(7, {"code": "1"})) is None


def test_a_request_key_tells_integers_from_strings_and_refuses_other_ids() -> None:
    assert request_key(3) == ("int", 3) and request_key("3") == ("str", "3")
    assert request_key(True) is None and request_key(3.0) is None and request_key(None) is None


# --- the runs started early ------------------------------------------------------------------------------------------


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    async with WorkerPool(2) as started:
        await all_idle(started)
        yield started


async def test_the_run_started_for_a_request_is_taken_by_its_handler_with_the_same_job(pool: WorkerPool) -> None:
    runs = EarlyRuns(pool)
    job = Job(code="6 * 7", timeout_ms=2_000)
    assert runs.start(("int", 1), job)
    assert runs.pending() == 1
    task = runs.take(("int", 1), Job(code="6 * 7", timeout_ms=2_000))
    assert task is not None and runs.pending() == 0
    with anyio.fail_after(WAIT_S):
        outcome = await outcome_of(task)
    assert outcome["ok"] and outcome["result"] == 42
    assert pool.stats()["completed"] == 1
    assert runs.take(("int", 1), job) is None  # taken once


async def _running(pool: WorkerPool, busy: int = 1) -> None:
    with anyio.fail_after(WAIT_S):
        while pool.stats()["busy"] < busy:  # noqa: ASYNC110
            await anyio.sleep(0.005)  # polling until the job has gone to its worker


async def test_a_handler_with_another_job_does_not_take_the_early_run_and_it_is_stopped(pool: WorkerPool) -> None:
    runs = EarlyRuns(pool)
    loop = Job(code="while (true) {}", timeout_ms=30_000)
    for other in (Job(code="while (true) {}", timeout_ms=29_999), Job(code="while (true) {} ", timeout_ms=30_000)):
        assert runs.start(("int", 2), loop)
        await _running(pool)
        assert runs.take(("int", 2), other) is None
        await all_idle(pool)  # the stopped run's worker was replaced
    assert runs.start(("int", 2), loop)
    assert runs.take(("str", "2"), loop) is None  # another request's
    await _running(pool)
    runs.stop(("int", 2))
    assert runs.pending() == 0
    await all_idle(pool)
    assert pool.stats()["restarts"] == 3
    outcome = await run_js(pool, "1 + 1")
    assert outcome["result"] == 2


async def test_a_run_nobody_takes_is_stopped_after_the_claim_window(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(early, "EARLY_CLAIM_S", 0.2)
    runs = EarlyRuns(pool)
    assert runs.start(("int", 3), Job(code="while (true) {}", timeout_ms=30_000))
    await _running(pool)
    with anyio.fail_after(WAIT_S):
        while runs.pending():  # noqa: ASYNC110
            await anyio.sleep(0.01)  # polling until the window closes
    await all_idle(pool)
    assert pool.stats()["restarts"] == 1


async def test_a_request_id_in_use_or_a_pool_without_a_free_worker_starts_nothing(pool: WorkerPool) -> None:
    runs = EarlyRuns(pool)
    assert runs.start(("int", 4), Job(code="while (true) {}", timeout_ms=30_000))
    assert not runs.start(("int", 4), Job(code="2", timeout_ms=2_000))  # a client reusing an id gets no early start
    assert runs.start(("int", 5), Job(code="while (true) {}", timeout_ms=30_000))
    await _running(pool, busy=2)
    assert pool.spare() == 0
    assert not runs.start(("int", 6), Job(code="3", timeout_ms=2_000))
    runs.stop(("int", 4))
    runs.stop(("int", 5))


async def test_cancelling_the_handler_that_took_an_early_run_stops_the_run(pool: WorkerPool) -> None:
    runs = EarlyRuns(pool)
    job = Job(code="while (true) {}", timeout_ms=30_000)
    assert runs.start(("int", 7), job)
    task = runs.take(("int", 7), job)
    assert task is not None
    await _running(pool)
    with anyio.move_on_after(0.3):
        await outcome_of(task)
    with anyio.fail_after(WAIT_S):
        while not task.done():  # noqa: ASYNC110
            await anyio.sleep(0.01)  # polling until the stop reaches the run
    assert task.cancelled()
    await all_idle(pool)
    assert pool.stats()["restarts"] == 1


# --- the tool and the server's early word ----------------------------------------------------------------------------


@pytest.fixture
async def app() -> AsyncIterator[App]:
    started = App.create(Settings())
    async with Client(build_server(app=started), mode="legacy"):
        await all_idle(started.pool)
        yield started


def _runs(app: App) -> JsRuns:
    spec = app.registry.get("execute_js")
    assert spec is not None and isinstance(spec.handler, JsRuns)
    return spec.handler


async def test_a_call_started_by_the_early_word_runs_once_and_answers_its_handler(app: App) -> None:
    runs = _runs(app)
    arguments = {"code": "[input.n * 2, Math.round(1.5)]", "input": {"n": 21}, "timeout_ms": 3_000}
    app.early_word(_call(11, arguments), start=True)
    assert runs.early.pending() == 1
    with anyio.fail_after(WAIT_S):
        result = await runs(arguments, CallContext(request=("int", 11)))
    assert isinstance(result, ToolResult) and (result.structured or {})["result"] == [42, 2]
    assert runs.early.pending() == 0 and app.pool.stats()["completed"] == 1


@pytest.mark.parametrize(
    "arguments",
    [
        {"code": 5},  # the schema's checks
        {"code": "1", "timeout_ms": 0},
        {"code": "1", "unknown": True},
        {"code": "x" * (Settings().max_code_bytes + 1)},  # the tool's own
        {"code": "1", "session": "s"},  # a session's worker runs it
        {"code": "1", "reset": True},
    ],
)
async def test_a_call_whose_arguments_fail_a_check_or_name_a_session_is_not_started_early(
    app: App, arguments: dict[str, Any]
) -> None:
    app.early_word(_call(12, arguments), start=True)
    assert _runs(app).early.pending() == 0


async def test_over_http_and_for_other_tools_the_word_starts_nothing(app: App) -> None:
    app.early_word(_call(13, {"code": "1"}), start=False)
    app.early_word(_call(14, {"a": "1", "b": "2"}, name="add"), start=True)
    assert _runs(app).early.pending() == 0


async def test_a_cancellation_stops_a_call_started_early(app: App) -> None:
    runs = _runs(app)
    app.early_word(_call(15, {"code": "while (true) {}", "timeout_ms": 30_000}), start=True)
    assert runs.early.pending() == 1
    await _running(app.pool)
    app.early_word(_cancel(15), start=False)  # over HTTP no word starts or stops anything
    assert runs.early.pending() == 1
    app.early_word(_cancel(15), start=True)
    assert runs.early.pending() == 0
    await all_idle(app.pool)
    assert app.pool.stats()["restarts"] == 1


async def test_an_answer_to_a_request_stops_the_call_started_early_for_it_that_nobody_took(app: App) -> None:
    runs = _runs(app)
    app.early_word(_call(17, {"code": "while (true) {}", "timeout_ms": 30_000}), start=True)
    await _running(app.pool)
    app.answered("17")  # another request's answer
    assert runs.early.pending() == 1
    app.answered(17)  # as when the SDK refuses the request: its early run is stopped at once
    assert runs.early.pending() == 0
    await all_idle(app.pool)
    assert app.pool.stats()["restarts"] == 1


async def test_a_tool_that_reaches_outside_its_isolate_never_starts_early(tmp_path: Any) -> None:
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    with_folder = App.create(Settings(data_dir=tmp_path))
    async with Client(build_server(app=with_folder), mode="legacy"):
        await all_idle(with_folder.pool)
        with_folder.early_word(_call(16, {"code": "1"}), start=True)
        assert _runs(with_folder).early.pending() == 0
