"""What ``/metrics`` shows a scraper: counts by tool and outcome kind, never the code, the arguments, the results,
session names or handles, whatever a caller puts in them; and never without the token when one is configured."""

from __future__ import annotations

import anyio
import httpx2
import pytest
from mcp import Client

from ..servers import http_server, server_env

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

MARK = "zq7secretmark"
"""A string that appears in what callers send and must appear nowhere in the metrics."""


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_no_code_argument_result_session_name_or_handle_reaches_the_metrics(mode: str) -> None:
    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                ran = await client.call_tool(
                    "execute_js",
                    {"code": f"const {MARK} = '{MARK}'; {MARK}", "input": {MARK: MARK}, "session": f"{MARK}-session"},
                )
                assert ran.structured_content is not None and ran.structured_content["result"] == MARK
                handle = ran.structured_content["session"]["handle"]
                failed = await client.call_tool("execute_js", {"code": f"throw new Error('{MARK}')", "session": handle})
                assert failed.is_error
                await client.call_tool("add", {"a": MARK, "b": "1"})  # refused: its message quotes the argument
                await client.call_tool("date_diff", {"start": MARK, "end": MARK})
        async with httpx2.AsyncClient() as http:
            text = (await http.get(base + "/metrics")).text
    assert MARK not in text
    assert handle not in text and handle[:24] not in text
    tools = {line.split('tool="')[1].split('"')[0] for line in text.splitlines() if 'tool="' in line}
    assert tools <= {"add", "divide", "date_diff", "execute_js"}
    outcomes = {line.split('outcome="')[1].split('"')[0] for line in text.splitlines() if 'outcome="' in line}
    assert outcomes and all(outcome.replace("_", "").isalpha() for outcome in outcomes)


async def test_an_unknown_tool_name_never_becomes_a_label() -> None:
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": MARK, "arguments": {}}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        refused = await http.post(base + "/mcp", json=call, headers=headers)
        text = (await http.get(base + "/metrics")).text
    assert "Unknown tool" in refused.text
    assert MARK not in text


@pytest.mark.parametrize(
    "authorization",
    [
        pytest.param(None, id="none"),
        pytest.param("Bearer wrong-token", id="wrong"),
        pytest.param("Basic bWV0cmljcy10b2tlbg==", id="other-scheme"),
        pytest.param("Bearer metrics-token-but-longer", id="prefix-of-a-longer-token"),
    ],
)
async def test_with_a_token_configured_metrics_are_refused_to_any_other_credential(authorization: str | None) -> None:
    env = server_env(SANDBOX_AUTH_TOKEN="server-token-for-metrics-tests", SANDBOX_METRICS_TOKEN="metrics-token")
    headers = {} if authorization is None else {"Authorization": authorization}
    async with http_server(env=env) as (base, _), httpx2.AsyncClient() as http:
        refused = await http.get(base + "/metrics", headers=headers)
        allowed = await http.get(base + "/metrics", headers={"Authorization": "Bearer metrics-token"})
    assert refused.status_code == 401 and "sandbox_" not in refused.text
    assert allowed.status_code == 200 and "sandbox_tool_calls_total" in allowed.text
