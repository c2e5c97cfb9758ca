"""Streamable HTTP end to end: tools through the SDK's HTTP client, the token rule, Host checks, health."""

from __future__ import annotations

import sys

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from .servers import http_server, server_env

pytestmark = pytest.mark.anyio

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_tools_are_called_over_streamable_http(mode: str) -> None:
    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                listed = await client.list_tools()
                assert {tool.name for tool in listed.tools} == {"add", "divide", "date_diff", "execute_js"}
                added = await client.call_tool("add", {"a": "12345678901234567890", "b": "1"})
                assert added.content[0].text.splitlines()[0] == "Result: 12345678901234567891"  # type: ignore[union-attr]
                ran = await client.call_tool("execute_js", {"code": "[1, 2, 3].map(x => x * x)"})
                assert ran.structured_content is not None
                assert ran.structured_content["result"] == [1, 4, 9]
                failed = await client.call_tool("divide", {"a": 1, "b": 0})
                assert failed.is_error is True


async def test_health_endpoint_reports_the_pool() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        response = await http.get(base + "/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["pool"]["size"] == 1


async def test_a_foreign_host_header_is_rejected_against_dns_rebinding() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        rejected = await http.post(base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Host": "attacker.example"})
        foreign_origin = await http.post(
            base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Origin": "http://attacker.example"}
        )
        accepted = await http.post(base + "/mcp", json=INITIALIZE, headers=HEADERS)
    assert rejected.status_code in (400, 403, 421)
    assert foreign_origin.status_code in (400, 403)
    assert accepted.status_code == 200


async def test_binding_beyond_localhost_without_a_token_refuses_to_start() -> None:
    command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--host", "0.0.0.0"]
    with anyio.fail_after(30):
        result = await anyio.run_process(command, env=server_env(), check=False)
    assert result.returncode == 2
    assert b"SANDBOX_AUTH_TOKEN" in result.stderr
    assert result.stdout == b""


async def test_with_a_token_configured_requests_must_carry_it() -> None:
    token = "s3cret-token-for-tests"
    async with http_server(env=server_env(SANDBOX_AUTH_TOKEN=token)) as (base, _):
        async with httpx2.AsyncClient() as http:
            missing = await http.post(base + "/mcp", json=INITIALIZE, headers=HEADERS)
            wrong = await http.post(base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Authorization": "Bearer x"})
            health = await http.get(base + "/healthz")
        assert missing.status_code == 401
        assert wrong.status_code == 401
        assert health.status_code == 200
        with anyio.fail_after(60):
            async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http_client:
                transport = streamable_http_client(base + "/mcp", http_client=http_client)
                async with Client(transport, mode="legacy") as client:
                    result = await client.call_tool("add", {"a": 2, "b": 2})
        assert result.content[0].text.splitlines()[0] == "Result: 4"  # type: ignore[union-attr]
