"""What running code through the pool produces: results, output, errors, limits and isolation."""

from __future__ import annotations

import json

import anyio
import pytest

from sandbox_server import platform
from sandbox_server.sandbox import WorkerPool

from .conftest import WAIT_S, run_js

pytestmark = pytest.mark.anyio


async def test_one_plus_one_is_two(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "1 + 1")
    assert outcome["ok"] is True
    assert outcome["error"] is None
    assert outcome["result"] == 2
    assert outcome["resultText"] == "2"
    assert outcome["durationMs"] >= 0


async def test_console_output_is_captured_separately_from_the_result(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "console.log('hello', 42); console.error('oops'); 'done'")
    assert outcome["ok"] is True
    assert outcome["stdout"] == "hello 42\n"
    assert outcome["stderr"] == "oops\n"
    assert outcome["result"] == "done"


async def test_input_is_available_to_the_code(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "input.a + input.b.length", input_json='{"a": 1, "b": [1, 2]}')
    assert outcome["result"] == 3


async def test_a_promise_result_is_awaited(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "await new Promise(resolve => setTimeout(() => resolve(7), 5)); return 6 * 7")
    assert outcome["ok"] is True
    assert outcome["result"] == 42
    assert outcome["async"] is True


async def test_deep_recursion_is_a_runtime_range_error(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "function f() { return f() + 1 }\nf()")
    error = outcome["error"]
    assert error is not None
    assert error["kind"] == "runtime"
    assert error["name"] == "RangeError"
    assert "call stack" in str(error["message"])
    assert error["line"] == 1


@pytest.mark.parametrize(
    ("code", "line", "column"),
    [
        pytest.param("x +* 2", 1, 4, id="script-first-line"),
        pytest.param("let a = 1;\nlet b = ;", 2, 9, id="script-second-line"),
        pytest.param("const x = await 1;\nx +* 2", 2, 4, id="top-level-await"),
        pytest.param("return (", 1, 9, id="unexpected-end-of-input"),
    ],
)
async def test_a_syntax_error_reports_its_line_and_column_in_the_submitted_code(
    pool: WorkerPool, code: str, line: int, column: int
) -> None:
    outcome = await run_js(pool, code)
    error = outcome["error"]
    assert error is not None
    assert error["kind"] == "syntax"
    assert error["name"] == "SyntaxError"
    assert (error["line"], error["column"]) == (line, column)


async def test_a_heap_bomb_is_a_memory_error(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "const a = []; while (true) a.push(new Array(1e6).fill(1))", timeout_ms=10_000)
    error = outcome["error"]
    assert error is not None
    assert error["kind"] == "memory"
    assert error["name"] == "MemoryError"
    assert error.get("limitMb") == pool.limits.memory_limit_mb
    assert outcome["ok"] is False
    assert (await run_js(pool, "1 + 1"))["result"] == 2


async def test_a_heap_bomb_in_a_timer_callback_is_a_memory_error(pool: WorkerPool) -> None:
    code = "setTimeout(() => { const a = []; while (true) a.push(new Array(1e6).fill(1)) }, 1)"
    outcome = await run_js(pool, code, timeout_ms=10_000)
    assert outcome["error"] is not None
    assert outcome["error"]["kind"] == "memory"


async def test_an_array_buffer_bomb_is_a_memory_error_and_does_not_grow_the_worker(pool: WorkerPool) -> None:
    code = "console.log('start'); const a = []; while (true) a.push(new ArrayBuffer(64 * 1024 * 1024))"
    outcome = await run_js(pool, code, timeout_ms=10_000)
    assert outcome["error"] is not None
    assert outcome["error"]["kind"] == "memory"
    for pid in pool.pids():
        assert _peak_rss_mib(pid) < 1024


@pytest.mark.skipif(
    platform.NAME == "portable", reason="untouched memory is not counted without an operating-system data limit"
)
async def test_a_webassembly_memory_beyond_the_limit_is_a_memory_error(pool: WorkerPool) -> None:
    outcome = await run_js(pool, "new WebAssembly.Memory({initial: 30000})")
    assert outcome["error"] is not None
    assert outcome["error"]["kind"] == "memory"


async def test_an_ordinary_infinite_loop_times_out_and_the_same_worker_survives(solo: WorkerPool) -> None:
    pids, restarts = solo.pids(), solo.stats()["restarts"]
    outcome = await run_js(solo, "console.log('before'); while (true) {}", timeout_ms=300)
    error = outcome["error"]
    assert error is not None
    assert error["kind"] == "timeout"
    assert error["name"] == "TimeoutError"
    assert error.get("limitMs") == 300
    assert "300 ms" in str(error["message"])
    assert outcome["stdout"] == "before\n"
    assert (await run_js(solo, "1 + 1"))["result"] == 2
    assert solo.pids() == pids
    assert solo.stats()["restarts"] == restarts


async def test_every_job_runs_in_a_fresh_isolate(solo: WorkerPool) -> None:
    first = await run_js(solo, "globalThis.leftover = 42; leftover")
    second = await run_js(solo, "typeof leftover")
    assert first["result"] == 42
    assert second["result"] == "undefined"


async def test_two_jobs_run_in_parallel_on_a_two_worker_pool(pool: WorkerPool) -> None:
    results: list[object] = []

    async def one(value: int) -> None:
        outcome = await run_js(pool, f"await new Promise(resolve => setTimeout(resolve, 100)); return {value}")
        results.append(outcome.get("result"))

    with anyio.fail_after(WAIT_S):
        async with anyio.create_task_group() as group:
            group.start_soon(one, 1)
            group.start_soon(one, 2)
    assert sorted(results) == [1, 2]  # type: ignore[type-var]


def _peak_rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("VmHWM missing")


async def test_a_promise_logged_just_before_a_timeout_is_never_shown_as_pending(pool: WorkerPool) -> None:
    # The loop keeps the check that reads the promise's state from running: when the run is stopped, the line
    # shows the state if the pending reactions could still run, and says it is unknown otherwise; never a guess.
    outcome = await run_js(pool, "console.log('before', Promise.resolve(1)); while (true) {}", timeout_ms=300)
    assert outcome["error"] is not None
    assert outcome["error"]["kind"] == "timeout"
    assert outcome["stdout"] in ("before Promise { 1 }\n", "before Promise { <unknown> }\n")


async def test_a_long_input_with_lone_surrogates_reaches_the_code_exactly(pool: WorkerPool) -> None:
    items = ["caf\u00e9", "\ud83d", "\U0001f600"] * 3_000
    outcome = await run_js(pool, "input.map(s => s.length).join('')", input_json=json.dumps(items, ensure_ascii=False))
    assert outcome["result"] == "412" * 3_000
