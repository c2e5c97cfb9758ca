"""Calls the running code makes to the host, through the pool: limits, concurrency, order, and the end of the job."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.sandbox.protocol import HostCallFailed, HostService

from .conftest import WAIT_S

pytestmark = pytest.mark.anyio


class Recorder:
    """A host handler that records each call, answers with its path, and can be held."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.release = anyio.Event()
        self.hold = False
        self.cancelled = 0

    async def __call__(self, kind: str, payload: Any) -> Any:
        self.calls.append((kind, payload))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.hold:
                await self.release.wait()
            else:
                await anyio.sleep(0.01)
        except anyio.get_cancelled_exc_class():
            self.cancelled += 1
            raise
        finally:
            self.in_flight -= 1
        if payload.get("path") == "refuse.txt":
            raise HostCallFailed({"name": "Error", "code": "ENOENT", "message": "", "advice": "not here"})
        return {"base64": "aGk="}  # "hi"


def service(handler: Recorder, calls: int = 50, in_flight: int = 8) -> HostService:
    return HostService(
        handler=handler, calls=calls, calls_setting="max_tool_calls", in_flight=in_flight, request_bytes=65_536
    )


async def run(pool: WorkerPool, code: str, handler: Recorder, **limits: int) -> dict[str, Any]:
    job = Job(code=code, timeout_ms=10_000, host=service(handler, **limits), data_folder=True)
    with anyio.fail_after(WAIT_S):
        return dict(await pool.run(job))


async def test_calls_run_concurrently_up_to_the_limit_and_every_one_is_answered(pool: WorkerPool) -> None:
    handler = Recorder()
    code = (
        "const fs = require('fs');"
        "const names = Array.from({ length: 20 }, (_, i) => `f${i}.txt`);"
        "(await Promise.all(names.map((n) => fs.promises.readFile(n, 'utf8')))).join('')"
    )
    outcome = await run(pool, code, handler, in_flight=4)
    assert outcome["error"] is None, outcome
    assert outcome["result"] == "hi" * 20
    assert sorted(payload["path"] for _, payload in handler.calls) == sorted(f"f{i}.txt" for i in range(20))
    assert handler.most_in_flight == 4


async def test_calls_past_the_execution_limit_fail_naming_the_setting(pool: WorkerPool) -> None:
    handler = Recorder()
    code = (
        "const fs = require('fs'); const results = [];"
        "for (let i = 0; i < 7; i++) {"
        "  try { await fs.promises.readFile(`f${i}`); results.push('ok'); } catch (e) { results.push(e.message); }"
        "}"
        "results"
    )
    outcome = await run(pool, code, handler, calls=5)
    assert outcome["result"][:5] == ["ok"] * 5
    assert all("max_tool_calls" in message for message in outcome["result"][5:])
    assert len(handler.calls) == 5


async def test_a_refused_call_rejects_with_the_hosts_error_fields(pool: WorkerPool) -> None:
    handler = Recorder()
    code = (
        "const fs = require('fs'); let r;"
        "try { await fs.promises.readFile('refuse.txt') } catch (e) { r = [e.code, e.message] } r"
    )
    outcome = await run(pool, code, handler)
    assert outcome["result"] == ["ENOENT", "ENOENT: no such file or directory, open 'refuse.txt' (not here)"]


async def test_calls_still_in_progress_when_the_job_times_out_are_cancelled(pool: WorkerPool) -> None:
    handler = Recorder()
    handler.hold = True
    code = "const fs = require('fs'); await Promise.all([1, 2, 3].map((i) => fs.promises.readFile(`h${i}`)))"
    job = Job(code=code, timeout_ms=300, host=service(handler), data_folder=True)
    with anyio.fail_after(WAIT_S):
        outcome = await pool.run(job)
    assert outcome["error"] is not None and outcome["error"]["kind"] == "timeout"
    with anyio.fail_after(WAIT_S):
        while handler.in_flight:  # noqa: ASYNC110
            await anyio.sleep(0.01)  # polling until the pool has cancelled the held calls
    assert handler.cancelled == 3
    assert (await run(pool, "1 + 1", Recorder()))["result"] == 2


async def test_the_request_the_host_gets_is_what_the_code_asked_whatever_it_changed_first(pool: WorkerPool) -> None:
    handler = Recorder()
    code = """
    JSON.stringify = () => '{"id":1,"kind":"tools.call","payload":{}}';
    Object.defineProperty(Object.prototype, 'kind', { get() { return 'evil'; }, set() {}, configurable: true });
    Object.defineProperty(Array.prototype, '0', { set(v) { globalThis.stolen = v; }, configurable: true });
    Promise.prototype.then = function () { return 'hijacked'; };
    const fs = require('fs');
    const name = 'odd "name"\\nwith\\u2028breaks';
    const answer = await fs.promises.readFile(name, 'utf8');
    [answer, typeof globalThis.stolen]
    """
    outcome = await run(pool, code, handler)
    assert [(kind, payload) for kind, payload in handler.calls] == [
        ("fs.readFile", {"path": 'odd "name"\nwith\u2028breaks'})
    ]
    assert json.dumps(outcome.get("result")) == json.dumps(["hi", "undefined"])


async def test_without_a_host_service_a_call_fails_at_once_and_the_code_goes_on(pool: WorkerPool) -> None:
    code = "const fs = require('fs'); let r; try { await fs.promises.readFile('x') } catch (e) { r = e.message } r"
    with anyio.fail_after(WAIT_S):
        outcome = await pool.run(Job(code=code, data_folder=True))
    assert "cannot reach the host" in outcome["result"]
