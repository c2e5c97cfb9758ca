"""Attacks on the journal that pauses and resumes runs (consent on the current revision) and rebuilds sessions: what
the user allowed runs once and exactly as shown, nothing the client holds can be read or altered into something
else, and a journal the code fills past its bound is refused, never cut."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.errors import ConsentPending
from sandbox_server.journal import JournalError, JournalingHost, RunJournal, digest
from sandbox_server.sandbox.protocol import CURRENT_HOST_CALL, HostCallFailed
from sandbox_server.server import App

from ..codemode.conftest import User, stdio_server, text_of, write_config
from ..conftest import make_settings

pytestmark = pytest.mark.anyio


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path, {"writes": stdio_server("writes", sideEffects="confirm")})


@asynccontextmanager
async def modern(config: Path) -> AsyncIterator[Client]:
    app = App.create(make_settings(upstream=config, workers=2))
    async with Client(build_server(app=app), mode="auto", elicitation_callback=User()) as client:  # type: ignore[arg-type]
        yield client


async def deleted(client: Client) -> Any:
    result = await client.call_tool("execute_js_with_tools", {"code": "(await tools.writes.deleted()).ids"})
    assert result.structured_content is not None
    return result.structured_content["result"]


async def test_the_same_state_resumed_twice_at_once_runs_the_call_once(config: Path) -> None:
    code = "await tools.writes.delete_record({ id: 3 }); 'done'"
    async with modern(config) as client:
        paused = await client.session.call_tool("execute_js_with_tools", {"code": code}, allow_input_required=True)
        assert isinstance(paused, types.InputRequiredResult) and paused.input_requests
        answers = {key: types.ElicitResult(action="accept", content={"allow": True}) for key in paused.input_requests}
        results: list[Any] = []

        async def resume() -> None:
            results.append(
                await client.session.call_tool(
                    "execute_js_with_tools",
                    {"code": code},
                    input_responses=answers,  # type: ignore[arg-type]
                    request_state=paused.request_state,
                    allow_input_required=True,
                )
            )

        async with anyio.create_task_group() as group:
            group.start_soon(resume)
            group.start_soon(resume)
        assert sorted(bool(result.is_error) for result in results) == [False, True]
        assert await deleted(client) == [3]


async def test_a_run_that_fills_its_journal_past_the_bound_is_refused_and_the_call_never_runs(config: Path) -> None:
    code = """
    for (let i = 0; i < 20500; i++) setTimeout(() => {}, 1);
    await new Promise(r => setTimeout(r, 50));
    await tools.writes.delete_record({ id: 4 });
    """
    async with modern(config) as client:
        result = await client.call_tool("execute_js_with_tools", {"code": code, "timeout_ms": 20000})
        assert result.is_error and "cannot be paused" in text_of(result)
        assert await deleted(client) == []


async def test_consent_applies_only_to_the_exact_call_the_user_was_shown() -> None:
    shown = {"server": "writes", "tool": "delete_record", "arguments": {"id": 1}}
    journal = RunJournal(asked={1: digest(["tools.call", shown])}, consent={1: "accept"})
    made: list[Any] = []

    async def upstream(kind: str, payload: Any) -> Any:
        made.append(payload)
        return "deleted"

    host = JournalingHost(upstream, journal)
    CURRENT_HOST_CALL.set(1)
    with pytest.raises(HostCallFailed) as refused:  # the run came back asking something else under that call's id
        await host("tools.call", {**shown, "arguments": {"id": 2}})
    assert refused.value.error["code"] == "diverged" and made == []
    assert await host("tools.call", shown) == "deleted"
    assert made == [shown]


async def test_a_call_answered_from_the_journal_is_not_made_again_whatever_its_id_asks_next() -> None:
    first = RunJournal()

    async def upstream(kind: str, payload: Any) -> Any:
        return {"made": payload}

    recording = JournalingHost(upstream, first)
    CURRENT_HOST_CALL.set(1)
    await recording("tools.call", {"server": "s", "tool": "t", "arguments": {}})

    async def must_not_run(kind: str, payload: Any) -> Any:
        raise AssertionError("an answered call was made again")

    again = JournalingHost(must_not_run, RunJournal.from_json(first.to_json()))
    assert await again("tools.call", {"server": "s", "tool": "t", "arguments": {}}) == {
        "made": {"server": "s", "tool": "t", "arguments": {}}
    }
    with pytest.raises(HostCallFailed):
        await again("tools.call", {"server": "s", "tool": "other", "arguments": {}})


async def test_a_call_waiting_for_consent_is_held_and_never_answered() -> None:
    async def needs_consent(kind: str, payload: Any) -> Any:
        raise ConsentPending("allow?")

    host = JournalingHost(needs_consent, RunJournal())
    CURRENT_HOST_CALL.set(5)
    with anyio.move_on_after(0.2) as waited:
        await host("tools.call", {"server": "s", "tool": "t", "arguments": {}})
    assert waited.cancelled_caught
    assert host.pause_wanted.is_set() and host.questions == {5: "allow?"} and 5 not in host.journal.calls


@pytest.mark.parametrize(
    "journal",
    [
        pytest.param({"seed": "00", "random": "0" * 32, "clock": [], "events": []}, id="short-seed"),
        pytest.param({"seed": "0" * 64, "random": "0" * 32, "clock": [1.5], "events": []}, id="float-clock"),
        pytest.param(
            {"seed": "0" * 64, "random": "0" * 32, "clock": [], "events": [], "calls": {"x": {}}}, id="call-id"
        ),
        pytest.param(
            {"seed": "0" * 64, "random": "0" * 32, "clock": [], "events": [], "consent": {"1": "yes"}}, id="answer"
        ),
        pytest.param(
            {
                "seed": "0" * 64,
                "random": "0" * 32,
                "clock": [],
                "events": [],
                "calls": {"1": {"kind": "tools.call", "asked": "x"}},
            },
            id="no-answer",
        ),
    ],
)
def test_a_journal_that_this_server_would_not_write_is_refused(journal: dict[str, Any]) -> None:
    with pytest.raises(JournalError):
        RunJournal.from_json(journal)
