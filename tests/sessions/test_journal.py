"""A session is the journal of its cells: rebuilt anywhere (its isolate let go, another replica), it is the state it
was, with the same random draws, clock readings and upstream answers; where it cannot be rebuilt as it was, the call
says so instead of going on from another state. Both revisions, in process (the one client of a stdio server)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.journal import MemoryStore
from sandbox_server.server import App
from sandbox_server.sessions.cells import StateRecord, read_handle

from ..codemode.conftest import User, stdio_server, write_config
from ..conftest import make_settings

pytestmark = pytest.mark.anyio


class Caller:
    def __init__(self, client: Client, app: App) -> None:
        self.client = client
        self.app = app

    async def call(self, code: str, session: str, tool: str = "execute_js", **arguments: Any) -> dict[str, Any]:
        result = await self.client.call_tool(tool, {"code": code, "session": session, **arguments})
        assert result.structured_content is not None, result
        structured = dict(result.structured_content)
        structured["text"] = "\n".join(getattr(block, "text", "") for block in result.content)
        return structured

    async def let_go(self) -> None:
        """Every live session gives up its isolate, as on a replica that never held them."""
        sessions = self.app.sessions
        assert sessions is not None
        for live in list(sessions._live.values()):
            await sessions._end_live(live, "the test let it go")


@asynccontextmanager
async def caller(mode: str, **settings: Any) -> AsyncIterator[Caller]:
    app = App.create(make_settings(workers=1, **settings))
    async with Client(build_server(app=app), mode=mode, elicitation_callback=User()) as client:  # type: ignore[arg-type]
        yield Caller(client, app)


MODES = pytest.mark.parametrize("mode", ["auto", "legacy"])

SEEN = """
var drawn = [Math.random(), crypto.randomUUID(), Date.now(), new Date().toISOString(), performance.now() >= 0];
var later = new Promise(r => setTimeout(() => r(Math.random()), 20));
drawn[0]
"""


@MODES
async def test_a_rebuilt_session_has_the_values_it_drew_and_the_clock_it_read(mode: str) -> None:
    async with caller(mode) as one:
        first = await one.call(SEEN, "s")
        handle = first["session"]["handle"]
        before = await one.call("[...drawn, await later]", handle)
        await one.let_go()
        await anyio.sleep(1.1)  # a later second: a live clock would read differently
        after = await one.call("[...drawn, await later]", before["session"]["handle"])
        assert after["session"]["rebuilt"] is True
        assert after["result"] == before["result"]
        assert after["result"][0] == first["result"]


@MODES
async def test_the_name_and_every_handle_reach_the_state_they_name(mode: str) -> None:
    async with caller(mode) as one:
        a = await one.call("var n = 1; n", "s")
        b = await one.call("n += 10", "s")
        assert b["result"] == 11
        branch = await one.call("n += 100", a["session"]["handle"])  # from the state after the first call
        assert branch["result"] == 101
        assert (await one.call("n", "s"))["result"] == 11  # the name follows its own newest state
        assert (await one.call("n", branch["session"]["handle"]))["result"] == 101


@MODES
async def test_a_forged_or_altered_handle_is_an_error_and_never_another_state(mode: str) -> None:
    async with caller(mode) as one:
        first = await one.call("var secret = 42; 1", "s")
        handle = first["session"]["handle"]
        for forged in (handle[:-2] + ("AA" if not handle.endswith("AA") else "BB"), "h.v1." + "A" * 76):
            refused = await one.call("typeof secret === 'undefined' ? 'fresh' : secret", forged)
            assert refused["ok"] is False and refused["error"]["kind"] == "session"
            assert "handle cannot be used" in refused["error"]["message"]
            assert "did not run" in refused["text"]


@MODES
async def test_reset_with_a_handle_starts_the_session_anew(mode: str) -> None:
    async with caller(mode) as one:
        first = await one.call("var kept = 1; kept", "s")
        fresh = await one.call("typeof kept", first["session"]["handle"], reset=True)
        assert fresh["result"] == "undefined" and fresh["session"]["created"] is True
        gone = await one.call("kept", first["session"]["handle"])
        assert gone["error"]["kind"] == "session" and "is gone" in gone["error"]["message"]


async def test_a_handle_sealed_by_another_server_names_the_keys_it_needs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_STATE_KEYS", "k" * 40)
    async with caller("auto") as one:
        handle = (await one.call("1", "s"))["session"]["handle"]
    monkeypatch.setenv("SANDBOX_STATE_KEYS", "j" * 40)
    async with caller("auto") as other:
        refused = await other.call("1", handle)
    assert refused["error"]["kind"] == "session" and "SANDBOX_STATE_KEYS" in refused["error"]["message"]


@MODES
async def test_a_cell_that_answers_differently_when_rebuilt_is_a_session_error_not_another_state(mode: str) -> None:
    async with caller(mode) as one:
        first = await one.call("var n = 41; n + 1", "s")
        handle = first["session"]["handle"]
        # As if the cell had depended on what no journal keeps (garbage collection, WebAssembly's timing): the answer
        # the store says it gave is not the one it gives when run again.
        store = one.app.store
        assert isinstance(store, MemoryStore)
        point = read_handle(one.app.keys, handle)  # type: ignore[arg-type]
        states = await store.states(point.session)
        record = StateRecord.unpack(states[point.state], 2**20)
        assert record.cell is not None
        record.cell.result = "0" * 32
        await store.add_state(point.session, point.state, record.pack(2**20), 60)
        await one.let_go()
        lost = await one.call("n", handle)
        assert lost["error"]["kind"] == "session" and "answered differently" in lost["error"]["message"]


@MODES
async def test_a_session_past_its_journal_bound_goes_on_but_cannot_be_rebuilt_and_says_so(mode: str) -> None:
    async with caller(mode, max_journal_bytes=65_536) as one:
        first = await one.call("var n = 1; n", "s")
        big = await one.call("n += 1; 'x'.repeat(10)", first["session"]["handle"], input="y" * 70_000)
        assert big["ok"] and big["result"] == "xxxxxxxxxx"
        assert (await one.call("n", big["session"]["handle"]))["result"] == 2  # live, it goes on
        await one.let_go()
        lost = await one.call("n", big["session"]["handle"])
        assert lost["error"]["kind"] == "session" and "max_journal_bytes" in lost["error"]["message"]


@MODES
async def test_a_rebuilt_cell_whose_files_changed_is_a_session_error(mode: str, tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_text("a\n1\n2\n", encoding="utf-8")
    async with caller(mode, data_dir=tmp_path) as one:
        first = await one.call("var total = files['t.csv'].rows.length; total", "s", files=["t.csv"])
        assert first["result"] == 2
        (tmp_path / "t.csv").write_text("a\n1\n2\n3\n", encoding="utf-8")
        await one.let_go()
        lost = await one.call("total", first["session"]["handle"])
        assert lost["error"]["kind"] == "session" and "files" in lost["error"]["message"]


@pytest.fixture
def upstreams(tmp_path: Path) -> Path:
    return write_config(
        tmp_path,
        {
            "ledger": stdio_server("writes", sideEffects="allow"),
            "writes": stdio_server("writes", sideEffects="confirm"),
        },
    )


@MODES
async def test_rebuilding_a_code_mode_session_never_calls_its_upstream_tools_again(mode: str, upstreams: Path) -> None:
    async with caller(mode, upstream=upstreams) as one:
        tool = "execute_js_with_tools"
        first = await one.call(
            "var made = (await tools.ledger.create_record({ name: 'a' })).record.id; made", "s", tool
        )
        await one.let_go()
        again = await one.call("[made, (await tools.ledger.state()).created.length]", first["session"]["handle"], tool)
        assert again["session"]["rebuilt"] is True
        assert again["result"] == [first["result"], 1]


@MODES
async def test_a_session_cell_that_needs_consent_is_applied_once_after_the_answer(mode: str, upstreams: Path) -> None:
    async with caller(mode, upstream=upstreams) as one:
        tool = "execute_js_with_tools"
        first = await one.call("var n = 1; await tools.ledger.create_record({ name: 'before' }); n", "s", tool)
        second = await one.call(
            "n += 1; await tools.writes.delete_record({ id: n }); n", first["session"]["handle"], tool
        )
        assert second["ok"], second["text"]
        assert second["result"] == 2 and second["session"]["calls"] == 2
        state = await one.call(
            "[n, (await tools.writes.deleted()).ids, (await tools.ledger.state()).created.length]",
            second["session"]["handle"],
            tool,
        )
        assert state["result"] == [2, [2], 1]


@MODES
async def test_a_new_session_runs_its_first_cell_even_when_its_worker_starts_slower_than_the_idle_time(
    mode: str,
) -> None:
    # A session's first call starts the session's worker process (hundreds of milliseconds) after keeping its
    # first state, which the store lets expire after the idle time: that state must not be looked up again.
    async with caller(mode, session_idle_timeout_s=0.05) as one:
        first = await one.call("var n = 41; n + 1", "s")
        assert first["ok"] is True, first["text"]
        assert first["result"] == 42 and first["session"]["created"] is True
