"""Sessions, attacked: another client naming the same session, a runaway or a memory bomb in one client's session,
a sessionless call looking for session state, and a cell that tampers with what passes the next call in."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import pytest

from ..sessions.conftest import Server, sessions_server

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def shared() -> AsyncIterator[Server]:
    async with sessions_server(max_sessions=8, max_sessions_per_client=4) as running:
        yield running


async def test_another_client_naming_the_same_session_gets_its_own_and_cannot_end_the_first(shared: Server) -> None:
    async with shared.connect() as alice, shared.connect() as mallory:
        await alice.value("var secret = 'alice-only'", session="work")
        seen = await mallory.call(
            "[typeof secret, Object.keys(globalThis).filter(k => !k.startsWith('_')).length]", session="work"
        )
        assert seen["result"][0] == "undefined" and seen["session"]["created"] is True
        await mallory.call("1", session="work", reset=True)
        assert await alice.value("secret", session="work") == "alice-only"


async def test_a_runaway_or_a_memory_bomb_in_one_clients_session_leaves_others_intact(shared: Server) -> None:
    async with shared.connect() as alice, shared.connect() as mallory:
        await alice.value("var total = 41", session="calm")
        await mallory.value("var x = 1", session="wild")

        outcomes: dict[str, dict[str, object]] = {}

        async def runaway() -> None:
            outcomes["wild"] = await mallory.call("while (true) {}", "wild", timeout_ms=500)

        async def bomb() -> None:
            outcomes["bomb"] = await mallory.call("const a = []; while (true) a.push(new Array(1e5).fill(1))", "bomb")

        async with anyio.create_task_group() as group:
            group.start_soon(runaway)
            group.start_soon(bomb)
            group.start_soon(alice.value, "total += 1", "calm")
        assert outcomes["wild"]["error"]["kind"] == "timeout"  # type: ignore[index]
        assert outcomes["bomb"]["error"]["kind"] == "memory"  # type: ignore[index]
        assert await alice.value("total", session="calm") == 42


async def test_a_call_without_a_session_never_sees_session_state(shared: Server) -> None:
    async with shared.connect() as alice:
        await alice.value("globalThis.leak = 'session state'", session="private")
        for _ in range(3):  # whichever worker answers
            assert await alice.value("typeof leak", session=None) == "undefined"


async def test_tampering_in_one_cell_changes_nothing_the_next_call_receives_or_returns(shared: Server) -> None:
    async with shared.connect() as alice:
        await alice.value(
            """
            JSON.parse = () => ({ code: 'forged', input: '', options: '{}', files: '' });
            JSON.stringify = () => '"forged"';
            Array.prototype.push = function () { throw new Error('push'); };
            Function.prototype.call = function () { throw new Error('call'); };
            Object.defineProperty(Object.prototype, 'code', { get() { return 'forged' }, configurable: true });
            1
            """,
            session="tamper",
        )
        after = await alice.call("input.n * 2", session="tamper", input={"n": 21})
        assert after["ok"], after["text"]
        assert after["result"] == 42 and after["session"]["calls"] == 2


async def test_no_entry_into_the_runtime_is_left_for_a_later_cell_to_find(shared: Server) -> None:
    # The worker reaches the runtime through a function no JavaScript can name: a session's later call finds the
    # same global names as a call in a fresh isolate.
    listing = "Object.getOwnPropertyNames(globalThis).sort()"
    async with shared.connect() as alice:
        fresh = await alice.value(listing)
        await alice.value("1", session="probe")
        later = await alice.value(listing, session="probe")
        assert later == fresh
        assert "console" in later and "input" in later


async def test_a_cell_cannot_leave_work_that_runs_into_the_next_call(shared: Server) -> None:
    async with shared.connect() as alice:
        first = await alice.call(
            "globalThis.count = 0; setTimeout(() => { count = 100 }, 50); Promise.resolve().then(() => count++); 'x'",
            session="timers",
        )
        assert first["ok"]
        # The first call ran until its timer fired, as any call does; nothing of it is left to run later.
        assert await alice.value("count", session="timers") == 100
