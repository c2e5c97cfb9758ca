"""Code mode over Streamable HTTP, with the real command: calls work statelessly; consent needs sessions, and with
them the question reaches the client on the request's stream."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from ..servers import http_server
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
