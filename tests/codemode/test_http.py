"""Code mode over Streamable HTTP, with the real command: calls work statelessly; consent pauses the run on the
current revision (and resumes on any replica with the same keys), and on the handshake revision needs sessions, with
which the question reaches the client on the request's stream."""

from __future__ import annotations

from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client

from ..servers import http_server, server_env
from .conftest import User, stdio_server, write_config

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def config(upstream_dir: Path) -> Path:
    return write_config(
        upstream_dir,
        {"records": stdio_server("records"), "writes": stdio_server("writes", sideEffects="confirm")},
        "http.json",
    )


async def test_stateless_http_calls_read_only_tools_and_refuses_consent_saying_why(config: Path) -> None:
    async with http_server("--upstream", str(config)) as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy", elicitation_callback=User()) as client:  # type: ignore[arg-type]
                names = {tool.name for tool in (await client.list_tools()).tools}
                assert "execute_js_with_tools" in names
                code = "(await tools.records.list_records({ status: 'closed' })).total"
                ran = await client.call_tool("execute_js_with_tools", {"code": code})
                assert ran.structured_content is not None and ran.structured_content["result"] == 67
                refused = await client.call_tool("execute_js_with_tools", {"code": "await tools.writes.touch()"})
                assert refused.structured_content is not None
                message = refused.structured_content["error"]["message"]
                assert "stateless HTTP" in message and "--http-sessions" in message
                state = await client.call_tool(
                    "execute_js_with_tools", {"code": "(await tools.writes.state()).touched"}
                )
                assert state.structured_content is not None and state.structured_content["result"] == 0


async def test_with_sessions_the_user_is_asked_over_http_and_the_answer_decides(config: Path) -> None:
    user = User()
    async with http_server("--upstream", str(config), "--http-sessions") as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy", elicitation_callback=user) as client:  # type: ignore[arg-type]
                ran = await client.call_tool(
                    "execute_js_with_tools", {"code": "await tools.writes.delete_record({ id: 9 })"}
                )
                assert ran.structured_content is not None and ran.structured_content["ok"], ran
                user.answer = "decline"
                declined = await client.call_tool(
                    "execute_js_with_tools", {"code": "await tools.writes.delete_record({ id: 10 })"}
                )
                assert declined.structured_content is not None
                assert declined.structured_content["toolCalls"][0]["outcome"] == "declined"
                ids = await client.call_tool("execute_js_with_tools", {"code": "(await tools.writes.deleted()).ids"})
                assert ids.structured_content is not None and ids.structured_content["result"] == [9]
    assert len(user.questions) == 2
    assert "delete_record" in user.questions[0].message


async def test_over_stateless_http_the_current_revision_asks_by_pausing_and_the_answer_decides(config: Path) -> None:
    user = User()
    async with http_server("--upstream", str(config)) as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", elicitation_callback=user) as client:  # type: ignore[arg-type]
                ran = await client.call_tool("execute_js_with_tools", {"code": "await tools.writes.touch(); 1"})
                assert ran.structured_content is not None and ran.structured_content["ok"], ran
                user.answer = "decline"
                declined = await client.call_tool("execute_js_with_tools", {"code": "await tools.writes.touch()"})
                assert declined.structured_content is not None and declined.structured_content["ok"] is False
                state = await client.call_tool(
                    "execute_js_with_tools", {"code": "(await tools.writes.state()).touched"}
                )
    assert len(user.questions) == 2 and "touch" in user.questions[0].message
    assert state.structured_content is not None and state.structured_content["result"] == 1


async def test_a_run_paused_on_one_replica_resumes_on_another_with_the_same_keys(config: Path) -> None:
    env = server_env(SANDBOX_STATE_KEYS="replicas-share-this-secret-of-forty-bytes")
    code = "await tools.writes.delete_record({ id: 77 }); (await tools.writes.deleted()).ids"
    async with (
        http_server("--upstream", str(config), env=env) as (first, _),
        http_server("--upstream", str(config), env=env) as (second, _),
    ):
        with anyio.fail_after(60):
            async with (
                Client(first + "/mcp", elicitation_callback=User()) as one,  # type: ignore[arg-type]
                Client(second + "/mcp", elicitation_callback=User()) as two,  # type: ignore[arg-type]
            ):
                paused = await one.session.call_tool("execute_js_with_tools", {"code": code}, allow_input_required=True)
                assert isinstance(paused, types.InputRequiredResult), paused
                assert paused.input_requests
                answers = {
                    key: types.ElicitResult(action="accept", content={"allow": True}) for key in paused.input_requests
                }
                done = await two.session.call_tool(
                    "execute_js_with_tools",
                    {"code": code},
                    input_responses=answers,  # type: ignore[arg-type]
                    request_state=paused.request_state,
                    allow_input_required=True,
                )
    assert isinstance(done, types.CallToolResult) and done.structured_content is not None
    assert done.structured_content["ok"], done
    assert 77 in done.structured_content["result"]
