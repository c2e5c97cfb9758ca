"""Two servers in one process sharing an SQLite store and keys, as two replicas on one host: a session moves between
them by its handles, and what one of them does with its own isolates never ends a session the other is using."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings
from .replicas import KEYS

pytestmark = pytest.mark.anyio


class Replica:
    def __init__(self, client: Client, app: App) -> None:
        self.client, self.app = client, app

    async def call(self, code: str, session: str) -> dict[str, Any]:
        result = await self.client.call_tool("execute_js", {"code": code, "session": session})
        assert result.structured_content is not None, result
        return dict(result.structured_content)


@asynccontextmanager
async def replicas(
    mode: str, folder: Path, count: int, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[list[Replica]]:
    monkeypatch.setenv("SANDBOX_STATE_KEYS", KEYS)
    store = f"sqlite://{folder / 'state.db'}"
    async with AsyncExitStack() as stack:
        started = []
        for _ in range(count):
            app = App.create(make_settings(workers=1, state_store=store, session_idle_timeout_s=60))
            client = await stack.enter_async_context(Client(build_server(app=app), mode=mode))
            started.append(Replica(client, app))
        yield started


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_session_moves_between_replicas_by_its_handles_and_is_rebuilt_right_on_each(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with replicas(mode, tmp_path, 2, monkeypatch) as (one, two):
        first = await one.call("var log = [Math.random()]; log.length", "s")
        second = await two.call("log.push(Math.random()); log.length", first["session"]["handle"])
        assert second["result"] == 2 and second["session"]["rebuilt"] is True
        third = await one.call("log.push(Math.random()); log", second["session"]["handle"])
        assert len(third["result"]) == 3 and third["session"]["rebuilt"] is True
        # Either replica, from the same handle, sees the same state: the values drawn were journaled.
        again = await two.call("log", third["session"]["handle"])
        assert again["result"] == third["result"]


async def test_a_replica_letting_go_of_an_idle_session_does_not_end_it_for_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with replicas("auto", tmp_path, 3, monkeypatch) as (one, two, three):
        first = await one.call("var n = 1; n", "s")
        second = await two.call("n += 1", first["session"]["handle"])
        assert second["result"] == 2
        # On the first replica the session's isolate has gone unused past the idle time; on the second it was used.
        sessions = one.app.sessions
        assert sessions is not None and sessions.count() == 1
        await sessions.sweep(now=time.monotonic() + 61)
        assert sessions.count() == 0
        kept = await three.call("n", second["session"]["handle"])
        assert kept["result"] == 2, kept
