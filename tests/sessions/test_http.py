"""Sessions over Streamable HTTP with the real command: statelessly, named by the handles the answers carry; with
--http-sessions, also by name per MCP session, never shared between two."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from benchmarks.procfs import workers

from ..servers import http_server

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_over_stateless_http_a_name_starts_a_session_and_its_handle_continues_it(mode: str) -> None:
    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                first = await client.call_tool("execute_js", {"code": "var n = 1; n", "session": "s"})
                assert first.structured_content is not None
                handle = first.structured_content["session"]["handle"]
                assert handle in "\n".join(getattr(block, "text", "") for block in first.content)
                kept = await client.call_tool("execute_js", {"code": "n += 1", "session": handle})
                named = await client.call_tool("execute_js", {"code": "typeof n", "session": "s"})
    assert kept.structured_content is not None and kept.structured_content["result"] == 2
    assert kept.structured_content["session"]["calls"] == 2
    assert kept.structured_content["session"]["handle"] != handle
    # Statelessly nobody is known: the same name from any client starts another session, never reaches this one.
    assert named.structured_content is not None and named.structured_content["result"] == "undefined"
    assert named.structured_content["session"]["created"] is True


async def test_with_http_sessions_state_is_kept_per_mcp_session_only() -> None:
    async with http_server("--http-sessions") as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy") as one, Client(base + "/mcp", mode="legacy") as two:
                await one.call_tool("execute_js", {"code": "var n = 1", "session": "s"})
                kept = await one.call_tool("execute_js", {"code": "n += 1", "session": "s"})
                other = await two.call_tool("execute_js", {"code": "typeof n", "session": "s"})
    assert kept.structured_content is not None and kept.structured_content["result"] == 2
    assert kept.structured_content["session"]["calls"] == 2
    assert other.structured_content is not None and other.structured_content["result"] == "undefined"
    assert other.structured_content["session"]["created"] is True


async def test_the_end_of_an_http_session_ends_its_sessions_and_their_workers() -> None:
    async with http_server("--http-sessions") as (base, process):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy") as client:
                await client.call_tool("execute_js", {"code": "var n = 1", "session": "s"})
                assert len(workers(process.pid)) == 2  # the pool's one worker and the session's own
            # The client ended its MCP session on leaving; the session's worker goes with it.
            while len(workers(process.pid)) > 1:  # noqa: ASYNC110 - polling /proc: no event says a process ended
                await anyio.sleep(0.05)
