"""A client that stops waiting stops the upstream call too, over the real transports: the ``sandbox-server`` process
over stdio and over Streamable HTTP (stateless and with sessions), on both revisions, when the client cancels the
call and when its HTTP connection simply goes away. The upstream (``tests/upstream/servers/effects.py``) waits 3 s
before its side effect and writes down whether ``notifications/cancelled`` reached it."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters

from ..servers import http_server, server_env
from ..upstream.effects_log import effects_server, ended, events, wait_for
from .conftest import ROOT, write_config

pytestmark = pytest.mark.anyio

CALL = {"code": "await tools.effects.transfer({ id: 'c1', ms: 3000 })", "timeout_ms": 30_000}
ENV = {"SANDBOX_TOOL_CALL_TIMEOUT_S": "120"}
"""Far beyond the test: only the client's stop may end the upstream call."""
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
BOUND_S = 60


@asynccontextmanager
async def upstream_config(folder: Path) -> AsyncIterator[tuple[Path, Path]]:
    with effects_server("stdio", folder, sideEffects="allow") as (entry, log):
        yield write_config(folder, {"effects": entry}, "effects.json"), log


async def assert_cancelled_before_its_effect(log: Path) -> None:
    end = await ended(log, "c1")
    assert (end["event"], end["notified"]) == ("cancelled", True), events(log, "c1")
    assert "effect" not in [event["event"] for event in events(log, "c1")]


async def cancel_once_started(client: Client, log: Path) -> None:
    """Call the slow tool, and give up on the call (the official client's way) once the upstream has it."""
    with anyio.fail_after(BOUND_S):
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "execute_js_with_tools", CALL)
            await wait_for(log, "c1", {"started"})
            group.cancel_scope.cancel()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_over_stdio_a_cancelled_call_is_cancelled_upstream(tmp_path: Path, mode: str) -> None:
    async with upstream_config(tmp_path) as (config, log):
        parameters = StdioServerParameters(
            command=sys.executable,
            args=["-m", "sandbox_server", "--upstream", str(config)],
            env=server_env(**ENV),
            cwd=ROOT,
        )
        with anyio.fail_after(BOUND_S):
            async with Client(parameters, mode=mode) as client:  # type: ignore[arg-type]
                await cancel_once_started(client, log)
                await assert_cancelled_before_its_effect(log)


@pytest.mark.parametrize(
    ("sessions", "mode"),
    [
        # The newest revision's client gives up by closing the call's response stream: a disconnect.
        pytest.param(False, "auto", id="stateless-2026-07-28"),
        # The 2025 revision's client posts notifications/cancelled.
        pytest.param(False, "legacy", id="stateless-2025-11-25"),
        pytest.param(True, "legacy", id="sessions-2025-11-25"),
    ],
)
async def test_over_http_a_cancelled_call_is_cancelled_upstream(tmp_path: Path, sessions: bool, mode: str) -> None:
    async with upstream_config(tmp_path) as (config, log):
        flags = ["--upstream", str(config), *(["--http-sessions"] if sessions else [])]
        async with http_server(*flags, env=server_env(**ENV)) as (base, _):
            with anyio.fail_after(BOUND_S):
                async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                    await cancel_once_started(client, log)
                    await assert_cancelled_before_its_effect(log)


async def open_conversation(http: httpx2.AsyncClient, base: str) -> dict[str, str]:
    """Initialize as a 2025 client does; returns the headers of its later requests."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }
    opened = await http.post(base + "/mcp", json=initialize, headers=HEADERS)
    headers = {**HEADERS, "Mcp-Session-Id": opened.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
    await http.post(base + "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


async def post_and_read(http: httpx2.AsyncClient, base: str, headers: dict[str, str]) -> list[Any]:
    params = {"name": "execute_js_with_tools", "arguments": CALL}
    body = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}
    async with http.stream("POST", base + "/mcp", json=body, headers=headers) as response:
        return [line async for line in response.aiter_lines()]


@pytest.mark.parametrize("sessions", [False, True], ids=["stateless", "sessions"])
async def test_over_http_a_client_that_disconnects_mid_call_cancels_the_upstream_call(
    tmp_path: Path, sessions: bool
) -> None:
    async with upstream_config(tmp_path) as (config, log):
        flags = ["--upstream", str(config), *(["--http-sessions"] if sessions else [])]
        async with http_server(*flags, env=server_env(**ENV)) as (base, _), httpx2.AsyncClient(timeout=90) as http:
            headers = await open_conversation(http, base) if sessions else HEADERS
            with anyio.fail_after(BOUND_S):
                async with anyio.create_task_group() as group:
                    group.start_soon(post_and_read, http, base, headers)
                    await wait_for(log, "c1", {"started"})
                    group.cancel_scope.cancel()  # closes the request's connection, and nothing more
                await assert_cancelled_before_its_effect(log)
