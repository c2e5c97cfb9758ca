"""Sessions over the real stdio transport, on both revisions: the process has one client, so a name continues its
session, and the handle each answer carries does too."""

from __future__ import annotations

import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from ..servers import server_env

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_over_stdio_a_name_and_a_handle_both_continue_the_session(mode: str) -> None:
    parameters = StdioServerParameters(command=sys.executable, args=["-m", "sandbox_server"], env=server_env())
    with anyio.fail_after(60):
        async with Client(parameters, mode=mode) as client:  # type: ignore[arg-type]
            first = await client.call_tool("execute_js", {"code": "var n = 1; n", "session": "s"})
            second = await client.call_tool("execute_js", {"code": "n += 1", "session": "s"})
            assert first.structured_content is not None and second.structured_content is not None
            handle = second.structured_content["session"]["handle"]
            third = await client.call_tool("execute_js", {"code": "n * 10", "session": handle})
    assert first.structured_content["session"]["created"] is True
    assert second.structured_content["result"] == 2 and second.structured_content["session"]["calls"] == 2
    assert third.structured_content is not None and third.structured_content["result"] == 20
