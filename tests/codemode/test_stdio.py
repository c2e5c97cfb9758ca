"""Code mode over the real stdio transport, with the official client: calls, consent through elicitation, the
list-changed capability, and the end of the upstream processes with the server's."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import psutil
import pytest
from mcp import Client, StdioServerParameters

from ..servers import server_env
from .conftest import ROOT, User, stdio_server, write_config

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_over_stdio_code_calls_upstream_tools_and_asks_the_user(upstream_dir: Path, mode: str) -> None:
    config = write_config(
        upstream_dir,
        {"records": stdio_server("records"), "writes": stdio_server("writes", sideEffects="confirm")},
        f"stdio-{mode}.json",
    )
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "sandbox_server", "--upstream", str(config)], env=server_env(), cwd=ROOT
    )
    user = User()
    with anyio.fail_after(90):
        async with Client(parameters, mode=mode, elicitation_callback=user) as client:  # type: ignore[arg-type]
            capabilities = client.server_capabilities
            assert capabilities is not None and capabilities.tools is not None
            assert capabilities.tools.list_changed is True
            code = "const r = await tools.records.get_record({ id: 5 }); await tools.writes.touch(); r.record.name"
            ran = await client.call_tool("execute_js_with_tools", {"code": code})
            assert ran.structured_content is not None and ran.structured_content["result"] == "record-005", ran
            assert [call["outcome"] for call in ran.structured_content["toolCalls"]] == ["ok", "ok"]
            pid = await client.call_tool("execute_js_with_tools", {"code": "(await tools.records.pid()).pid"})
            assert pid.structured_content is not None
            upstream_pid = pid.structured_content["result"]
    assert len(user.questions) == 1 and "touch" in user.questions[0].message
    _, alive = await anyio.to_thread.run_sync(lambda: _wait_gone(upstream_pid))
    assert alive == [], "the upstream server outlived sandbox-server"


def _wait_gone(pid: int) -> tuple[list[psutil.Process], list[psutil.Process]]:
    try:
        process = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return [], []
    return psutil.wait_procs([process], timeout=15)
