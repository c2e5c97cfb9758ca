"""Consent on the current revision (2026-07-28): a run that needs the user's consent pauses with ``input_required``
and resumes from its journal when the client calls again with the answer, on this server or another with the same
keys; nothing that happened before the pause happens twice, and a request state is used once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings
from .conftest import CodeMode, User, code_mode, stdio_server, text_of, write_config

pytestmark = pytest.mark.anyio

KEY_A = "a" * 40
KEY_B = "b" * 40


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(
        tmp_path,
        {
            "writes": stdio_server("writes", sideEffects="confirm"),
            "ledger": stdio_server("writes", sideEffects="allow"),
            "records": stdio_server("records"),
        },
    )


@pytest.fixture(params=["auto", "legacy"])
async def both(request: pytest.FixtureRequest, config: Path) -> AsyncIterator[CodeMode]:
    async with code_mode(config, User(), client_mode=request.param) as connected:
        yield connected


BEFORE_AND_AFTER = """
const drawn = [Math.random(), Date.now(), crypto.randomUUID()];
console.log('before the call', drawn[0]);
const made = await tools.ledger.create_record({ name: 'first ' + drawn[0] });
await tools.writes.delete_record({ id: 41 });
console.log('after the call');
({ drawn, made: made.record, seen: drawn[0] === Math.random() ? 'same' : 'draws on' })
"""


async def test_an_accepted_call_runs_once_and_what_came_before_it_happens_once(both: CodeMode) -> None:
    assert both.user is not None
    result, structured = await both.run(BEFORE_AND_AFTER)
    assert structured["ok"], text_of(result)
    assert len(both.user.questions) == 1
    assert "delete_record" in both.user.questions[0].message
    # One record created, although a paused run is run twice on the current revision; the deletion ran once.
    ledger = await both.value("(await tools.ledger.state()).created")
    assert [record["name"] for record in ledger] == [f"first {structured['result']['drawn'][0]}"]
    assert structured["result"]["made"] == ledger[0]
    assert await both.value("(await tools.writes.deleted()).ids") == [41]
    # The output before the pause is there once, the output after it too.
    assert structured["stdout"].count("before the call") == 1
    assert structured["stdout"].count("after the call") == 1
    assert [call["outcome"] for call in structured["toolCalls"]] == ["ok", "ok"]


async def test_declined_and_dismissed_calls_throw_in_the_code_and_never_run(both: CodeMode) -> None:
    assert both.user is not None
    for answer, words in (("decline", "declined"), ("cancel", "dismissed")):
        both.user.answer = answer
        _, structured = await both.run(
            "let r; try { await tools.writes.delete_record({ id: 7 }); r = ['ran'] }"
            " catch (e) { r = [e.name, e.code, e.message] }\nr"
        )
        name, code, message = structured["result"]
        assert (name, code) == ("ToolError", "declined"), structured
        assert words in message
        assert structured["toolCalls"][-1]["outcome"] == "declined"
    both.user.answer, both.user.allow = "accept", False  # the form sent back unticked is no consent
    _, structured = await both.run("await tools.writes.delete_record({ id: 8 })")
    assert structured["ok"] is False and "declined" in structured["error"]["message"]
    both.user.answer, both.user.allow = "accept", True
    assert await both.value("(await tools.writes.deleted()).ids") == []


async def test_each_call_that_needs_consent_is_asked_about_and_runs_once(both: CodeMode) -> None:
    assert both.user is not None
    value = await both.value(
        """
        await tools.writes.delete_record({ id: 1 });
        const both = await Promise.all([tools.writes.delete_record({ id: 2 }), tools.writes.touch()]);
        await tools.writes.delete_record({ id: 3 });
        (await tools.writes.state())
        """
    )
    assert value["deleted"] == [1, 2, 3] and value["touched"] == 1
    asked = [question.message for question in both.user.questions]
    assert len(asked) == 4
    assert sum('"id": 2' in message for message in asked) == 1


async def driven(client: Client, code: str, **arguments: Any) -> types.InputRequiredResult | types.CallToolResult:
    """The first answer to a call, as a client that drives the rounds itself sees it."""
    return await client.session.call_tool(
        "execute_js_with_tools", {"code": code, **arguments}, allow_input_required=True
    )


def accept(paused: types.InputRequiredResult) -> dict[str, types.ElicitResult]:
    assert paused.input_requests
    return {key: types.ElicitResult(action="accept", content={"allow": True}) for key in paused.input_requests}


async def resumed(
    client: Client, code: str, paused: types.InputRequiredResult, state: str | None = None, **arguments: Any
) -> types.CallToolResult | types.InputRequiredResult:
    return await client.session.call_tool(
        "execute_js_with_tools",
        {"code": code, **arguments},
        input_responses=accept(paused),  # type: ignore[arg-type]
        request_state=paused.request_state if state is None else state,
        allow_input_required=True,
    )


@asynccontextmanager
async def modern(config: Path, **settings: Any) -> AsyncIterator[tuple[Client, App]]:
    app = App.create(make_settings(upstream=config, workers=1, **settings))
    async with Client(build_server(app=app), mode="auto", elicitation_callback=User()) as client:  # type: ignore[arg-type]
        yield client, app


DELETE = "await tools.writes.delete_record({ id: 5 }); (await tools.writes.deleted()).ids"


async def test_the_pause_is_an_input_required_result_with_the_question_and_a_sealed_state(config: Path) -> None:
    async with modern(config) as (client, _):
        paused = await driven(client, DELETE)
        assert isinstance(paused, types.InputRequiredResult)
        assert paused.input_requests is not None and list(paused.input_requests) == ["consent-1"]
        request = paused.input_requests["consent-1"]
        assert isinstance(request, types.ElicitRequest)
        assert isinstance(request.params, types.ElicitRequestFormParams)
        assert "delete_record" in request.params.message and '"id": 5' in request.params.message
        assert request.params.requested_schema["required"] == ["allow"]
        assert paused.request_state is not None and paused.request_state.startswith("v1.")
        assert "delete" not in paused.request_state  # sealed: the client cannot read the journal
        assert await client.call_tool("execute_js", {"code": "1"})  # nothing ran meanwhile
        done = await resumed(client, DELETE, paused)
        assert isinstance(done, types.CallToolResult) and done.structured_content is not None
        assert done.structured_content["result"] == [5]


async def test_the_same_accepted_state_sent_twice_runs_the_call_once(config: Path) -> None:
    async with modern(config) as (client, _):
        paused = await driven(client, DELETE)
        assert isinstance(paused, types.InputRequiredResult)
        first = await resumed(client, DELETE, paused)
        assert isinstance(first, types.CallToolResult) and not first.is_error
        again = await resumed(client, DELETE, paused)
        assert isinstance(again, types.CallToolResult) and again.is_error
        assert "resumed already" in text_of(again)
        assert (
            await client.call_tool("execute_js_with_tools", {"code": "(await tools.writes.deleted()).ids"})
        ).structured_content["result"] == [5]  # type: ignore[index]


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        pytest.param(
            lambda state: state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB"), "altered", id="altered"
        ),
        pytest.param(lambda state: "v1." + "A" * 80, "key this server does not hold", id="made-up"),
        pytest.param(lambda state: state + "x", "altered", id="extended"),
    ],
)
async def test_a_tampered_state_is_refused_and_runs_nothing(config: Path, tamper: Any, words: str) -> None:
    async with modern(config) as (client, _):
        paused = await driven(client, DELETE)
        assert isinstance(paused, types.InputRequiredResult) and paused.request_state is not None
        with pytest.raises(MCPError) as refused:
            await resumed(client, DELETE, paused, tamper(paused.request_state))
        assert "Invalid or expired requestState" in refused.value.error.message
        assert words in refused.value.error.message
        value = await client.call_tool("execute_js_with_tools", {"code": "(await tools.writes.deleted()).ids"})
        assert value.structured_content is not None and value.structured_content["result"] == []


async def test_a_state_for_other_code_is_refused(config: Path) -> None:
    async with modern(config) as (client, _):
        paused = await driven(client, DELETE)
        assert isinstance(paused, types.InputRequiredResult)
        with pytest.raises(MCPError) as refused:
            await resumed(client, DELETE + " // changed", paused)
        assert "belongs to another call" in refused.value.error.message


async def test_an_expired_state_is_refused(config: Path) -> None:
    async with modern(config, state_ttl_s=0.2) as (client, _):
        paused = await driven(client, DELETE)
        assert isinstance(paused, types.InputRequiredResult)
        await anyio.sleep(0.4)  # past the state's lifetime: expiry is what this test is about
        with pytest.raises(MCPError) as refused:
            await resumed(client, DELETE, paused)
        assert "expired" in refused.value.error.message and "--state-ttl-s" in refused.value.error.message


async def test_a_replica_with_the_same_keys_resumes_and_one_without_refuses_naming_the_variable(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SANDBOX_STATE_KEYS", f"{KEY_A},{KEY_B}")
    async with modern(config) as (first, _):
        paused = await driven(first, DELETE)
        assert isinstance(paused, types.InputRequiredResult)
        monkeypatch.setenv("SANDBOX_STATE_KEYS", KEY_B)  # another replica, unaware of the sealing key
        async with modern(config) as (stranger, _):
            with pytest.raises(MCPError) as refused:
                await resumed(stranger, DELETE, paused)
            assert "SANDBOX_STATE_KEYS" in refused.value.error.message
        monkeypatch.setenv("SANDBOX_STATE_KEYS", f"{KEY_B},{KEY_A}")  # rotated: A still unseals
        async with modern(config) as (second, _):
            done = await resumed(second, DELETE, paused)
            assert isinstance(done, types.CallToolResult) and done.structured_content is not None
            assert done.structured_content["result"] == [5]


async def test_a_journal_over_its_bound_is_refused_with_a_clear_error_not_cut(config: Path) -> None:
    async with modern(config, max_journal_bytes=65_536) as (client, _):
        code = """
        for (let i = 0; i < 40; i++) await tools.ledger.create_record({ name: 'x'.repeat(4000) });
        await tools.writes.delete_record({ id: 9 });
        """
        result = await client.call_tool("execute_js_with_tools", {"code": code})
        assert result.is_error
        assert "cannot be paused" in text_of(result) and "max_journal_bytes" in text_of(result)
        deleted = await client.call_tool("execute_js_with_tools", {"code": "(await tools.writes.deleted()).ids"})
        assert deleted.structured_content is not None and deleted.structured_content["result"] == []


async def test_a_large_journal_waits_in_the_store_and_resumes(config: Path) -> None:
    async with modern(config) as (client, _):
        code = """
        const made = [];
        for (let i = 0; i < 20; i++) {
          made.push((await tools.ledger.create_record({ name: 'y'.repeat(5000) })).record.id);
        }
        await tools.writes.delete_record({ id: 10 });
        made.length
        """
        paused = await driven(client, code)
        assert isinstance(paused, types.InputRequiredResult) and paused.request_state is not None
        assert len(paused.request_state) < 4096  # a reference, not the journal
        done = await resumed(client, code, paused)
        assert isinstance(done, types.CallToolResult) and done.structured_content is not None
        assert done.structured_content["result"] == 20
        count = await client.call_tool("execute_js_with_tools", {"code": "(await tools.ledger.state()).created.length"})
        assert count.structured_content is not None and count.structured_content["result"] == 20


async def test_a_client_without_elicitation_on_the_current_revision_is_refused_saying_why(config: Path) -> None:
    app = App.create(make_settings(upstream=config, workers=1))
    async with Client(build_server(app=app), mode="auto") as client:
        result = await client.call_tool("execute_js_with_tools", {"code": DELETE})
        assert result.structured_content is not None and result.structured_content["ok"] is False
        assert "does not offer elicitation" in result.structured_content["error"]["message"]
