"""The early word that a request will run code (:mod:`sandbox_server.transport.hints`): which requests give it, that
both transports give it as the request arrives, and that a worker told a job is coming still runs the job as
before."""

from __future__ import annotations

import functools
import json
import os
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from starlette.types import Receive, Scope, Send

from sandbox_server.app import App
from sandbox_server.backlog import Backlog
from sandbox_server.sandbox import WorkerPool
from sandbox_server.sandbox import process as process_module
from sandbox_server.sandbox.protocol import PRIME_MESSAGE
from sandbox_server.server import build_server
from sandbox_server.settings import Settings
from sandbox_server.transport.hints import announces_a_run, tell
from sandbox_server.transport.http.admission import Admission, AdmissionLimits
from sandbox_server.transport.stdio.lines import InputLines

from ..sandbox.conftest import WAIT_S, all_idle, run_js

pytestmark = pytest.mark.anyio


def _request(name: str, arguments: dict[str, Any], method: str = "tools/call") -> bytes:
    params = {"name": name, "arguments": arguments}
    return json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).encode()


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (_request("execute_js", {"code": "1+1"}), True),
        (_request("execute_js_with_tools", {"code": "await tools.a.b()"}), True),
        (_request("execute_js", {"code": "1+1", "session": "work"}), False),  # its session's worker runs it
        (_request("add", {"a": "1", "b": "2"}), False),
        (_request("execute_js", {}, method="tools/list"), False),
        (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', False),
    ],
)
def test_a_request_announces_a_run_when_it_calls_a_javascript_tool_outside_a_session(
    line: bytes, expected: bool
) -> None:
    assert announces_a_run(line) is expected


def test_a_word_that_fails_is_logged_and_the_request_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    def failing(data: bytes) -> None:
        raise RuntimeError("the pool said no")

    tell(failing, _request("execute_js", {"code": "1"}))
    assert "the early word of a request failed" in caplog.text


async def test_stdio_gives_the_word_for_each_line_that_announces_a_run_as_it_reads_it() -> None:
    heard: list[int] = []
    read, write = os.pipe()
    try:
        lines = InputLines(read, on_run=lambda data: heard.append((len(received), data)))
        received: list[str] = []
        cancel = b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}'
        run = _request("execute_js", {"code": "1"})
        for line in (_request("add", {"a": "1", "b": "2"}), run, cancel, run):
            os.write(write, line + b"\n")
        os.close(write)
        write = -1
        with anyio.fail_after(WAIT_S):
            async for text in lines:
                received.append(text)  # noqa: PERF401 (the word's callback reads how many came before)
    finally:
        os.close(read)
        if write != -1:
            os.close(write)
    assert len(received) == 4
    # Heard before the line was handed on, as read: the second, third and fourth lines.
    assert heard == [(1, run), (2, cancel), (3, run)]


async def test_http_gives_the_word_for_a_body_that_announces_a_run_before_the_transport_sees_it() -> None:
    heard: list[str] = []

    async def transport(scope: Scope, receive: Receive, send: Send) -> None:
        heard.append("transport")
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b"{}"})

    limits = AdmissionLimits(body_timeout_s=5, max_body_bytes=2**20, sessions=False)
    admission = Admission(transport, None, limits, Backlog(2**26), on_run=lambda data: heard.append("run"))
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=admission), base_url="http://127.0.0.1") as http:
        for body in (
            _request("execute_js", {"code": "1"}),
            _request("add", {"a": "1", "b": "2"}),
            _request("execute_js", {"code": "1", "session": "s"}),
        ):
            response = await http.post("/mcp", content=body, headers=headers)
            assert response.status_code == 200
    assert heard == ["run", "transport", "transport", "transport"]


def _recorded_primes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The workers (their pids) the pools of the test tell that a job is coming, as they are told."""
    told: list[int] = []
    send_now = process_module.WorkerProcess.send_now

    def recording(self: process_module.WorkerProcess, message: dict[str, Any]) -> bool:
        if message == PRIME_MESSAGE:
            told.append(self.pid)
        return send_now(self, message)

    monkeypatch.setattr(process_module.WorkerProcess, "send_now", recording)
    return told


async def test_the_pool_tells_one_idle_worker_and_nobody_once_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    told = _recorded_primes(monkeypatch)
    async with WorkerPool(2) as pool:
        await all_idle(pool)
        pool.prime()
        assert len(told) == 1 and told[0] in pool.pids()
    pool.prime()
    assert len(told) == 1


async def test_a_worker_told_again_and_again_that_a_job_is_coming_runs_each_job_it_gets() -> None:
    async with WorkerPool(1) as pool:
        for round_ in range(3):
            await all_idle(pool)  # the worker has its next isolate
            for _ in range(round_ + 1):
                pool.prime()
            outcome = await run_js(pool, f"globalThis.seen = (globalThis.seen ?? 0) + 1; [seen, {round_} * 7]")
            # A fresh isolate each time, whatever the word made the worker run in it before the job.
            assert outcome["ok"] and outcome["result"] == [1, round_ * 7]


async def test_a_session_call_wakes_no_worker_and_a_call_outside_one_wakes_the_pools(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told = _recorded_primes(monkeypatch)
    app = App.create(Settings())
    async with Client(build_server(app=app), mode="legacy") as client:
        first = await client.call_tool("execute_js", {"code": "let n = 20", "session": "work"})
        handle = (first.structured_content or {})["session"]["handle"]
        await all_idle(app.pool)
        over_http = functools.partial(app.early_word, start=False)
        for session in (handle, "work"):
            tell(over_http, _request("execute_js", {"code": "n", "session": session}))
        assert told == []
        tell(over_http, _request("execute_js", {"code": "n"}))
        assert len(told) == 1 and told[0] in app.pool.pids()
        after = await client.call_tool("execute_js", {"code": "n + 22", "session": handle})
        assert (after.structured_content or {})["result"] == 42
