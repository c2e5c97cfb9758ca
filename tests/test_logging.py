"""MCP logging: the capability is declared, logging/setLevel is honoured, notifications respect the level."""

from __future__ import annotations

import logging

import anyio
import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server

from .conftest import make_settings
from .servers import http_server

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]


async def test_the_logging_capability_is_declared(client: Client) -> None:
    assert client.server_capabilities.logging is not None


async def test_tool_calls_are_sent_as_log_notifications_only_at_or_above_the_level_set() -> None:
    received: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)

    async with Client(build_server(make_settings(workers=1)), mode="legacy", logging_callback=on_log) as client:
        with anyio.fail_after(30):
            await client.call_tool("add", {"a": 1, "b": 2})
            assert received == []  # before setLevel only warnings and errors are sent
            await client.set_logging_level("info")
            await client.call_tool("add", {"a": 1, "b": 2})
            await client.call_tool("execute_js", {"code": "throw new Error('x')"})
            await client.send_ping()  # notifications sent before a reply arrive before it
            assert [(entry.level, entry.data["tool"], entry.data["outcome"]) for entry in received] == [
                ("info", "add", "ok"),
                ("info", "execute_js", "runtime"),
            ]
            assert all(entry.logger == "sandbox_server" for entry in received)
            await client.set_logging_level("error")
            await client.call_tool("add", {"a": 1, "b": 2})
            await client.send_ping()
    assert len(received) == 2


async def test_one_info_line_per_call_goes_to_the_log_without_the_code(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="sandbox_server")
    async with Client(build_server(make_settings(workers=1)), mode="legacy") as client:
        with anyio.fail_after(30):
            await client.call_tool("execute_js", {"code": "'secret-value'.length", "input": {"k": "hidden-input"}})
    lines = [record.getMessage() for record in caplog.records if record.name == "sandbox_server"]
    calls = [line for line in lines if line.startswith("tool=")]
    assert len(calls) == 1
    assert calls[0].startswith("tool=execute_js outcome=ok duration_ms=")
    assert not any("secret-value" in line or "hidden-input" in line for line in lines)


async def test_on_the_current_revision_each_request_chooses_its_own_level() -> None:
    received: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)

    async with Client(build_server(make_settings(workers=1)), logging_callback=on_log, log_level="info") as client:
        with anyio.fail_after(30):
            await client.call_tool("add", {"a": 1, "b": 2})
            await client.call_tool("execute_js", {"code": "1"}, meta={"io.modelcontextprotocol/logLevel": "error"})
    assert [(entry.level, entry.data["tool"]) for entry in received] == [("info", "add")]


async def test_over_stateless_http_the_current_revision_gets_log_messages_on_its_requests_stream() -> None:
    received: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)

    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", logging_callback=on_log, log_level="info") as client:
                await client.call_tool("execute_js", {"code": "throw new Error('x')"})
            async with Client(base + "/mcp", logging_callback=on_log) as quiet:  # no level asked: none sent
                await quiet.call_tool("add", {"a": 1, "b": 2})
    assert [(entry.level, entry.data["tool"], entry.data["outcome"]) for entry in received] == [
        ("info", "execute_js", "runtime")
    ]
