"""Sessions through the official MCP client: state kept between the calls that name a session, what the result says
about it, its resets and limits, and calls without a session unchanged."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest

from .conftest import Server, sessions_server

pytestmark = pytest.mark.anyio


async def test_globals_and_functions_persist_between_the_calls_of_a_session(server: Server) -> None:
    async with server.connect() as one:
        first = await one.call("var rows = [3, 1, 2]; function total(xs) { return xs.reduce((a, b) => a + b) }; 1")
        assert first["session"]["created"] is True and first["session"]["calls"] == 1
        assert await one.value("rows.sort(); total(rows)") == 6
        third = await one.call("rows")
        assert third["result"] == [1, 2, 3]
        assert third["session"]["created"] is False and third["session"]["calls"] == 3
        assert third["session"]["heapBytes"] > 0 and third["session"]["ageS"] >= 0
        assert 'Session "s": call 3' in third["text"]


async def test_a_call_reports_the_heap_its_session_held_when_it_began(server: Server) -> None:
    # The heap is read after each call, off its path: the next call reports what the previous one left.
    async with server.connect() as one:
        small = await one.call("1")
        grown = await one.call("globalThis.big = new Array(4e6).fill(1.5); big.length")
        after = await one.call("big.length")
    assert grown["session"]["heapBytes"] - small["session"]["heapBytes"] < 8 * 2**20
    assert after["session"]["heapBytes"] - grown["session"]["heapBytes"] > 24 * 2**20
    assert "MiB at its start" in after["text"]


async def test_a_call_without_a_session_starts_fresh_as_before(server: Server) -> None:
    async with server.connect() as one:
        await one.value("globalThis.left = 'behind'")
        plain = await one.call("typeof left", session=None)
        assert plain["result"] == "undefined" and "session" not in plain


async def test_reset_discards_the_state_before_running(server: Server) -> None:
    async with server.connect() as one:
        await one.value("var kept = 1", session="r")
        fresh = await one.call("typeof kept", session="r", reset=True)
        assert fresh["result"] == "undefined" and fresh["session"]["created"] is True


async def test_reset_without_a_session_is_an_argument_error(server: Server) -> None:
    async with server.connect() as one:
        refused = await one.call("1", session=None, reset=True)
        assert refused["error"]["kind"] == "arguments" and "session" in refused["error"]["message"]


async def test_a_call_that_runs_out_of_time_is_not_applied_and_the_next_call_finds_the_state_before_it(
    server: Server,
) -> None:
    async with server.connect() as one:
        await one.value("var kept = 1", session="t")
        late = await one.call("kept = 2; while (true) {}", session="t", timeout_ms=300)
        assert late["error"]["kind"] == "timeout"
        assert "ran out of time" in late["session"]["reset"] and "not applied" in late["session"]["reset"]
        assert 'Session "t": the call ran out of time, so it was not applied' in late["text"]
        after = await one.call("kept", session="t")
        assert after["result"] == 1 and after["session"]["created"] is False
        assert after["session"]["rebuilt"] is True and after["session"]["calls"] == 2


async def test_running_out_of_memory_leaves_that_session_as_it_was_and_others_untouched(server: Server) -> None:
    async with server.connect() as one:
        await one.value("var mine = 'a'", session="keep")
        await one.value("var doomed = 1", session="bomb")
        blown = await one.call("const xs = []; while (true) xs.push(new Array(1e5).fill(1))", session="bomb")
        assert blown["error"]["kind"] == "memory" and "not applied" in blown["session"]["reset"]
        assert await one.value("mine", session="keep") == "a"
        assert await one.value("doomed", session="bomb") == 1


async def test_calls_in_one_session_run_one_at_a_time_in_order(server: Server) -> None:
    async with server.connect() as one:
        await one.value("var log = []", session="q")
        results: list[object] = []

        async def call(i: int) -> None:
            results.append(
                await one.value(f"log.push({i}); await new Promise(r => setTimeout(r, 30)); log.length", session="q")
            )

        async with anyio.create_task_group() as group:
            for i in range(4):
                group.start_soon(call, i)
        assert sorted(results) == [1, 2, 3, 4]  # each call saw the ones before it, none ran beside another


async def test_the_client_limit_names_its_setting_and_the_sessions_that_exist(server: Server) -> None:
    async with server.connect() as one:
        for name in ("a", "b", "c"):
            await one.value("1", session=name)
        refused = await one.call("1", session="d")
        assert refused["error"]["kind"] == "session"
        message = refused["error"]["message"]
        assert "max_sessions_per_client = 3" in message and "a, b, c" in message
        assert "did not run" in refused["text"]


async def test_past_the_server_limit_the_least_recently_used_session_is_let_go_and_rebuilt_when_next_used() -> None:
    async with (
        sessions_server(max_sessions=2, max_sessions_per_client=3) as small,
        small.connect() as one,
    ):
        manager = small.app.sessions
        assert manager is not None
        await one.value("var x = 'first'; Math.random()", session="x")
        drawn = await one.value("Math.random()", session="y")
        await one.value("1", session="z")  # a third live session: the least recently used one (x) gives way
        assert manager.count() == 2
        again = await one.call("x", session="x")
        assert again["result"] == "first" and again["session"]["rebuilt"] is True
        assert manager.count() == 2
        assert (await one.call("Math.random() === " + repr(drawn), session="y"))["result"] is False


async def test_the_server_limit_names_its_setting_when_every_live_session_is_busy() -> None:
    async with (
        sessions_server(max_sessions=1, max_sessions_per_client=2) as small,
        small.connect() as one,
    ):
        async with anyio.create_task_group() as group:
            busy = anyio.Event()

            async def hold() -> None:
                busy.set()
                await one.value("await new Promise(r => setTimeout(r, 1500)); 1", session="a")

            group.start_soon(hold)
            await busy.wait()
            with anyio.fail_after(10):
                while small.app.sessions is not None and small.app.sessions.count() == 0:  # noqa: ASYNC110
                    await anyio.sleep(0.01)  # until the first session holds its isolate (no event says so)
            refused = await one.call("1", session="b")
        assert refused["error"]["kind"] == "session"
        assert "max_sessions = 1" in refused["error"]["message"] and "busy" in refused["error"]["message"]


async def test_idle_and_old_sessions_end(server: Server) -> None:
    sessions = server.app.sessions
    assert sessions is not None
    async with server.connect() as one:
        await one.value("var kept = 1", session="idle")
        await sessions.sweep(now=time.monotonic() + sessions.session_limits.idle_s + 1)  # as if the time had passed
        after = await one.call("typeof kept", session="idle")
        assert after["result"] == "undefined" and after["session"]["created"] is True
        assert "had ended" in after["session"]["reset"]


async def test_a_client_that_disconnects_takes_its_sessions_with_it() -> None:
    async with sessions_server() as fresh:
        manager = fresh.app.sessions
        assert manager is not None
        async with fresh.connect() as one:
            await one.value("1", session="gone")
            assert manager.count() == 1
        # The connection's own teardown ends them as it closes: nothing to wait for.
        assert manager.count() == 0


async def test_files_loaded_by_one_call_stay_for_the_next(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text("region,amount\nnorth,5\nsouth,7\n", encoding="utf-8")
    async with sessions_server(data_dir=tmp_path) as with_files, with_files.connect() as one:
        first = await one.call("files['sales.csv'].rows.length", files=["sales.csv"])
        assert first["result"] == 2
        assert await one.value("files['sales.csv'].rows.map(r => Number(r.amount)).reduce((a, b) => a + b)") == 12


async def test_a_session_name_outside_the_pattern_is_an_argument_error(server: Server) -> None:
    async with server.connect() as one:
        refused = await one.call("1", session="../etc")
        assert refused["error"]["kind"] == "arguments" and "session" in refused["error"]["message"]


async def test_cells_declare_again_what_earlier_cells_declared_as_a_notebook_reruns_a_cell(server: Server) -> None:
    async with server.connect() as one:
        cell = (
            "const rows = [3, 1, 2]; class Box { constructor(v) { this.v = v } }; "
            "function total(xs) { return xs.reduce((a, b) => a + b) }"
        )
        await one.value(cell, session="nb")
        await one.value(cell, session="nb")  # the same cell again: no "already been declared"
        assert await one.value("const rows = [10, 20]; total(rows) + new Box(1).v", session="nb") == 31
        await one.value("const r = await Promise.resolve(5); let z = r * 2", session="nb")
        assert await one.value("z + r", session="nb") == 15
        assert await one.value("let z = 'again'; z", session="nb") == "again"


def test_the_command_line_runs_several_calls_in_one_session() -> None:
    import subprocess
    import sys

    ran = subprocess.run(
        [sys.executable, "-m", "sandbox_server", "tools", "call", "execute_js",
         "--args", '{"code": "const n = 20", "session": "s"}', "--then", '{"code": "n * 2 + 2", "session": "s"}'],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    first, second = ran.stdout.split("\n---\n")
    assert 'Session "s": new' in first
    assert second.startswith("Result: 42") and 'Session "s": call 2' in second


async def test_a_session_longer_than_a_name_that_is_no_handle_is_an_argument_error(server: Server) -> None:
    async with server.connect() as one:
        refused = await one.call("1", session="a" * 65)
        assert refused["error"]["kind"] == "arguments"
        assert "at most 64" in refused["error"]["message"] and "handle" in refused["error"]["message"]
