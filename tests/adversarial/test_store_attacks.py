"""Attacks on a shared state store by whoever can write to it (its Redis, its SQLite file) but does not hold the
servers' keys: what they change or move is refused and never replayed, a resumed run cannot be granted a consent the
user did not give, and nothing in the store can be read. SQLite here, so that the test can write into the file; a
Redis store is sealed by the same wrapper."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.journal import JournalError, pack, unpack
from sandbox_server.server import App
from sandbox_server.sessions.cells import read_handle

from ..codemode.conftest import User, stdio_server, write_config
from ..conftest import make_settings

pytestmark = pytest.mark.anyio

KEYS = "attackers-do-not-hold-this-forty-byte-key"


class Server:
    def __init__(self, client: Client, app: App, database: Path) -> None:
        self.client, self.app, self.database = client, app, database

    async def call(self, code: str, session: str | None = None, **arguments: Any) -> dict[str, Any]:
        if session is not None:
            arguments["session"] = session
        result = await self.client.call_tool(arguments.pop("tool", "execute_js"), {"code": code, **arguments})
        text = "\n".join(getattr(block, "text", "") for block in result.content)
        return {"ok": not result.is_error, **(result.structured_content or {}), "text": text}

    async def let_go(self) -> None:
        """Every live isolate let go, as on a replica that never held the sessions: the next call rebuilds."""
        sessions = self.app.sessions
        assert sessions is not None
        for live in list(sessions._live.values()):
            await sessions._end_live(live, "the test let it go")

    def write(self, sql: str, *parameters: Any) -> None:
        """What someone with write access to the store's file does."""
        with sqlite3.connect(self.database) as db:
            assert db.execute(sql, parameters).rowcount == 1


@asynccontextmanager
async def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **settings: Any) -> AsyncIterator[Server]:
    monkeypatch.setenv("SANDBOX_STATE_KEYS", KEYS)
    database = tmp_path / "state.db"
    app = App.create(make_settings(workers=1, state_store=f"sqlite://{database}", **settings))
    async with Client(build_server(app=app), mode="auto", elicitation_callback=User()) as client:  # type: ignore[arg-type]
        yield Server(client, app, database)


@pytest.mark.parametrize("forgery", ["altered", "plain", "moved"])
async def test_a_session_state_changed_in_the_store_is_refused_and_never_replayed(
    forgery: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with server(tmp_path, monkeypatch) as one:
        first = await one.call("var n = 1; n", "s")
        second = await one.call("n += 1", first["session"]["handle"])
        other = await one.call("var n = 500; n", "other")
        assert one.app.keys is not None
        point = read_handle(one.app.keys, second["session"]["handle"])
        elsewhere = read_handle(one.app.keys, other["session"]["handle"])
        await one.let_go()
        sealed = (
            sqlite3.connect(one.database)
            .execute("SELECT value FROM states WHERE session = ? AND state = ?", (point.session, point.state))
            .fetchone()[0]
        )
        if forgery == "altered":  # one byte of the sealed value changed
            forged = sealed[:-8] + (b"A" if sealed[-8:-7] != b"A" else b"B") + sealed[-7:]
        elif forgery == "plain":  # the state as the attacker would like it, unsealed: a cell that sets n to 999
            unsealed = one.app.keys.unseal_entry(f"state:{point.session}:{point.state}", sealed)
            record = unpack(unsealed.decode("ascii"), 2**24)
            record["cell"]["code"] = "n = 999"
            forged = pack(record, 2**24).encode("ascii")
        else:  # another session's state, sealed by the server, put in this one's place
            forged = (
                sqlite3.connect(one.database)
                .execute(
                    "SELECT value FROM states WHERE session = ? AND state = ?", (elsewhere.session, elsewhere.state)
                )
                .fetchone()[0]
            )
        one.write("UPDATE states SET value = ? WHERE session = ? AND state = ?", forged, point.session, point.state)
        refused = await one.call("n", second["session"]["handle"])
        assert refused["ok"] is False and refused["error"]["kind"] == "session", refused
        assert refused.get("result") not in (2, 999, 500)
        # The state before it is untouched, and still rebuilds as it was.
        assert (await one.call("n", first["session"]["handle"]))["result"] == 1


async def test_a_paused_runs_journal_rewritten_in_the_store_cannot_grant_consent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write_config(
        tmp_path,
        {
            "ledger": stdio_server("writes", sideEffects="allow"),
            "writes": stdio_server("writes", sideEffects="confirm"),
        },
    )
    # Random text the ledger answers makes the journal too large for the request state: it waits in the store.
    code = """
    const name = Array.from({ length: 4000 }, () => crypto.randomUUID()).join('');
    await tools.ledger.create_record({ name });
    await tools.writes.delete_record({ id: 66 });
    """
    async with server(tmp_path, monkeypatch, upstream=config) as one:
        session = one.client.session
        paused = await session.call_tool("execute_js_with_tools", {"code": code}, allow_input_required=True)
        assert isinstance(paused, types.InputRequiredResult) and paused.input_requests
        assert one.app.keys is not None
        with sqlite3.connect(one.database) as db:
            key, sealed = db.execute("SELECT key, value FROM entries WHERE key LIKE 'run:%'").fetchone()
        journal = unpack(one.app.keys.unseal_entry(f"entry:{key}", sealed).decode("ascii"), 2**26)
        asked = journal["journal"]
        # Whoever can write to the store, but holds no key, writes the journal back as they want it: consented.
        asked["consent"] = {str(call): "accept" for call in asked.get("asked", [])} or {"1": "accept"}
        one.write("UPDATE entries SET value = ? WHERE key = ?", pack(journal, 2**26).encode("ascii"), key)
        declined = {key: types.ElicitResult(action="decline") for key in paused.input_requests}
        resumed = await session.call_tool(
            "execute_js_with_tools",
            {"code": code},
            input_responses=declined,  # type: ignore[arg-type]
            request_state=paused.request_state,
            allow_input_required=True,
        )
        assert isinstance(resumed, types.CallToolResult) and resumed.is_error
        assert "journal is not here" in "\n".join(getattr(block, "text", "") for block in resumed.content)
        state = await one.call("(await tools.writes.deleted()).ids", tool="execute_js_with_tools")
        assert state["result"] == []  # what the user declined never ran


async def test_nothing_the_store_holds_can_be_read_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with server(tmp_path, monkeypatch) as one:
        answered = await one.call("var secret = 'figures'; input.total", "s", input={"total": 41})
        assert answered["ok"] and answered["result"] == 41
        with sqlite3.connect(one.database) as db:
            held = [bytes(value) for (value,) in db.execute("SELECT value FROM states")]
    assert len(held) == 2  # the session's root and the state after the call
    for value in held:  # none is a journal anyone could unpack (they are packed, then sealed)
        with pytest.raises(JournalError):
            unpack(value.decode("ascii"), 2**24)
