"""Streamable HTTP end to end, over a real ``sandbox-server serve --transport http`` process and the official
client: tools, progress and log notifications, cancellation and disconnects in both modes, tokens, Host checks,
health."""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

from ..servers import http_server, server_env

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

RUNAWAY = {"code": "while (true) {}", "timeout_ms": 60_000}
"""A call that would hold its worker for a minute unless something stops it."""

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


@pytest.mark.parametrize("token", ["", "   "], ids=["empty", "blank"])
async def test_an_empty_or_blank_token_refuses_to_start_naming_the_variable(token: str) -> None:
    command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--host", "0.0.0.0"]
    with anyio.fail_after(30):
        result = await anyio.run_process(command, env=server_env(SANDBOX_AUTH_TOKEN=token), check=False)
    assert result.returncode == 2
    assert b"SANDBOX_AUTH_TOKEN is set but empty or blank" in result.stderr


async def test_with_a_token_configured_requests_must_carry_it() -> None:
    token = "s3cret-token-for-tests"
    async with http_server(env=server_env(SANDBOX_AUTH_TOKEN=token)) as (base, _):
        async with httpx2.AsyncClient() as http:
            missing = await http.post(base + "/mcp", json=INITIALIZE, headers=HEADERS)
            wrong = await http.post(base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Authorization": "Bearer x"})
            health = await http.get(base + "/healthz")
            lower_case = await http.post(
                base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Authorization": f"bearer {token}"}
            )
            other_scheme = await http.post(
                base + "/mcp", json=INITIALIZE, headers={**HEADERS, "Authorization": f"Basic {token}"}
            )
        assert missing.status_code == 401
        assert wrong.status_code == 401
        assert other_scheme.status_code == 401
        assert lower_case.status_code == 200  # the scheme name is case-insensitive
        assert health.status_code == 200
        with anyio.fail_after(60):
            async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http_client:
                transport = streamable_http_client(base + "/mcp", http_client=http_client)
                async with Client(transport, mode="legacy") as client:
                    result = await client.call_tool("add", {"a": 2, "b": 2})
        assert result.content[0].text.splitlines()[0] == "Result: 4"  # type: ignore[union-attr]


async def test_an_unknown_protocol_version_header_is_refused_naming_the_header_and_the_versions_spoken() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        response = await http.post(
            base + "/mcp", json=INITIALIZE, headers={**HEADERS, "MCP-Protocol-Version": "1999-01-01"}
        )
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert "MCP-Protocol-Version" in message
    assert "'1999-01-01'" in message
    assert "2025-11-25" in message
    assert "_meta" not in message


async def test_a_client_that_accepts_only_json_gets_a_plain_json_answer() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        response = await http.post(
            base + "/mcp",
            json={
                "jsonrpc": "2.0",
                "id": 7,
                "method": "tools/call",
                "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
            },
            headers={**HEADERS, "Accept": "application/json"},
        )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["result"]["structuredContent"]["result"] == "3"


@pytest.mark.parametrize("sessions", [False, True], ids=["stateless", "sessions"])
async def test_progress_notifications_arrive_over_http_before_the_result(sessions: bool) -> None:
    progress: list[float] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(value)

    async with http_server(*(["--http-sessions"] if sessions else [])) as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy") as client:
                result = await client.call_tool(
                    "execute_js",
                    {"code": "await new Promise(resolve => setTimeout(resolve, 1200)); 'done'"},
                    progress_callback=on_progress,
                )
    assert result.structured_content is not None
    assert result.structured_content["result"] == "done"
    assert len(progress) >= 2
    assert progress == sorted(progress)


async def test_with_sessions_log_messages_arrive_at_the_level_the_client_set() -> None:
    received: list[types.LoggingMessageNotificationParams] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        received.append(params)

    async with http_server("--http-sessions") as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy", logging_callback=on_log) as client:
                assert client.server_capabilities.logging is not None
                await client.call_tool("add", {"a": 1, "b": 2})
                assert received == []  # below the default level until the client asks for more
                await client.set_logging_level("info")
                await client.call_tool("add", {"a": 1, "b": 2})
                await client.call_tool("execute_js", {"code": "throw new TypeError('x')"})
                await client.set_logging_level("error")
                await client.call_tool("add", {"a": 1, "b": 2})
                await client.send_ping()
    assert [(entry.level, entry.data["tool"], entry.data["outcome"]) for entry in received] == [
        ("info", "add", "ok"),
        ("info", "execute_js", "runtime"),
    ]


async def test_stateless_http_does_not_offer_logging_it_could_not_honour() -> None:
    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode="legacy") as client:
                assert client.server_capabilities.logging is None
                with pytest.raises(MCPError) as refused:
                    await client.set_logging_level("info")
    assert refused.value.error.code == types.METHOD_NOT_FOUND


async def wait_until_busy(http: httpx2.AsyncClient, base: str) -> None:
    """Wait until the pool reports a worker running a job."""
    while (await http.get(base + "/healthz")).json()["pool"]["busy"] < 1:  # noqa: ASYNC110 - polling another process
        await anyio.sleep(0.02)


async def answer_promptly(client: Client) -> None:
    """One call on the single worker; bounded well below the runaway's minute, so a held worker fails the test."""
    with anyio.fail_after(20):
        result = await client.call_tool("execute_js", {"code": "6 * 7"})
    assert result.structured_content is not None
    assert result.structured_content["result"] == 42


@pytest.mark.parametrize(
    ("sessions", "mode"),
    [
        # On the newest revision the official client cancels by closing the call's response stream.
        pytest.param(False, "auto", id="stateless-newest-revision"),
        # On 2025 revisions it posts notifications/cancelled, matched to the call by Mcp-Session-Id and request id.
        pytest.param(False, "legacy", id="stateless-2025-revision"),
        pytest.param(True, "legacy", id="sessions-2025-revision"),
    ],
)
async def test_a_call_the_official_client_abandons_frees_the_worker_for_the_next_call(
    sessions: bool, mode: str
) -> None:
    server = http_server(*(["--http-sessions"] if sessions else []))
    async with server as (base, _), httpx2.AsyncClient() as http, Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
        async with anyio.create_task_group() as group:
            group.start_soon(client.call_tool, "execute_js", RUNAWAY)
            with anyio.fail_after(30):
                await wait_until_busy(http, base)
            group.cancel_scope.cancel()  # the official client's way of giving up on a call
        await answer_promptly(client)


async def call_runaway(http: httpx2.AsyncClient, base: str, headers: dict[str, str], request_id: int) -> list[Any]:
    """POST a runaway tools/call and read its event stream to the end; returns the JSON-RPC messages in it."""
    body = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "execute_js", "arguments": RUNAWAY},
    }
    async with http.stream("POST", base + "/mcp", json=body, headers=headers) as response:
        assert response.status_code == 200
        return [json.loads(line[6:]) async for line in response.aiter_lines() if line.startswith("data: {")]


async def open_conversation(http: httpx2.AsyncClient, base: str) -> dict[str, str]:
    """Initialize as a 2025 client does; returns the headers of its later requests (with the Mcp-Session-Id)."""
    opened = await http.post(base + "/mcp", json=INITIALIZE, headers=HEADERS)
    headers = {**HEADERS, "Mcp-Session-Id": opened.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
    await http.post(base + "/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


@pytest.mark.parametrize("sessions", [False, True], ids=["stateless", "sessions"])
async def test_notifications_cancelled_stops_the_call_and_sends_no_result_for_it(sessions: bool) -> None:
    async with (
        http_server(*(["--http-sessions"] if sessions else [])) as (base, _),
        httpx2.AsyncClient(timeout=90) as http,
    ):
        conversation = await open_conversation(http, base)
        streamed: list[Any] = []

        async def run() -> None:
            streamed.extend(await call_runaway(http, base, conversation, 5))

        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(run)
                await wait_until_busy(http, base)
                cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}
                accepted = await http.post(base + "/mcp", json=cancel, headers=conversation)
                assert accepted.status_code == 202
        # The stream ends without a result, with the "cancelled" error that 2025-era streams end with.
        assert [message for message in streamed if "result" in message] == []
        assert [message["error"]["code"] for message in streamed if "error" in message] == [-32800]
        async with Client(base + "/mcp", mode="legacy") as client:
            await answer_promptly(client)


async def test_without_sessions_a_cancellation_from_another_client_does_not_stop_a_call() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient(timeout=90) as http:
        mine = await open_conversation(http, base)
        theirs = await open_conversation(http, base)
        assert mine["Mcp-Session-Id"] != theirs["Mcp-Session-Id"]
        busy = "const end = Date.now() + 1500; while (Date.now() < end) {} 'finished'"
        answer: list[httpx2.Response] = []

        async def run() -> None:
            answer.append(await http.post(base + "/mcp", json=call_of(5, busy), headers=mine))

        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(run)
                await wait_until_busy(http, base)
                cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}
                for headers in (theirs, {**HEADERS, "MCP-Protocol-Version": "2025-11-25"}):  # another id, or none
                    assert (await http.post(base + "/mcp", json=cancel, headers=headers)).status_code == 202
    assert '"result":"finished"' in answer[0].text


def call_of(request_id: int, code: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "execute_js", "arguments": {"code": code}},
    }


@pytest.mark.parametrize(
    ("sessions", "accept"),
    [
        pytest.param(False, "application/json, text/event-stream", id="stateless-event-stream"),
        pytest.param(False, "application/json", id="stateless-plain-json"),
        # With sessions every client accepts event streams, as the transport requires.
        pytest.param(True, "application/json, text/event-stream", id="sessions-event-stream"),
    ],
)
async def test_a_client_that_disconnects_during_a_call_frees_its_worker(sessions: bool, accept: str) -> None:
    async with (
        http_server(*(["--http-sessions"] if sessions else [])) as (base, _),
        httpx2.AsyncClient(timeout=90) as http,
    ):
        headers = {**HEADERS, "Accept": accept}
        if sessions:
            headers = await open_conversation(http, base)
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(call_runaway if accept != "application/json" else post_runaway, http, base, headers, 9)
                await wait_until_busy(http, base)
                group.cancel_scope.cancel()  # closes the request's connection
        async with Client(base + "/mcp", mode="legacy") as client:
            await answer_promptly(client)


async def post_runaway(http: httpx2.AsyncClient, base: str, headers: dict[str, str], request_id: int) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "execute_js", "arguments": RUNAWAY},
    }
    await http.post(base + "/mcp", json=body, headers=headers)


INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"


async def inspector(url: str, *args: str) -> tuple[int, str]:
    """Run the official MCP Inspector CLI against ``url`` over Streamable HTTP; returns its status and output."""
    command = ["npx", "--yes", INSPECTOR, "--cli", url, "--transport", "http", *args]
    with anyio.fail_after(300):
        done = await anyio.run_process(command, env=server_env(), check=False)
    return done.returncode, done.stdout.decode() + done.stderr.decode()


@pytest.mark.skipif(shutil.which("npx") is None, reason="npm/npx is not installed; the Inspector needs it")
@pytest.mark.parametrize("sessions", [False, True], ids=["stateless", "sessions"])
async def test_the_inspector_calls_tools_and_sets_the_log_level_exactly_where_logging_is_offered(
    sessions: bool,
) -> None:
    async with http_server(*(["--http-sessions"] if sessions else [])) as (base, _):
        status, output = await inspector(
            base + "/mcp", "--method", "tools/call", "--tool-name", "execute_js", "--tool-arg", "code=[3,1,2].sort()"
        )
        assert status == 0, output
        assert '"resultText": "[ 1, 2, 3 ]"' in output
        status, output = await inspector(base + "/mcp", "--method", "logging/setLevel", "--log-level", "debug")
    if sessions:
        assert status == 0, output
    else:
        assert "Server does not support logging" in output


def test_the_http_limits_are_flags_and_variables_with_documented_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox_server.cli import build_parser
    from sandbox_server.cli import settings_from as _settings_from
    from sandbox_server.settings import Settings

    assert Settings(workers=1).max_request_memory_mb == 256
    parsed = build_parser().parse_args(
        [
            "serve",
            "--transport",
            "http",
            "--http-sessions",
            "--max-request-memory-mb",
            "5",
            "--http-header-timeout",
            "2.5",
        ]
    )
    settings = _settings_from(parsed)
    assert (settings.http_sessions, settings.max_request_memory_mb, settings.http_header_timeout_s) == (True, 5, 2.5)
    assert Settings().http_max_connections == 256
    monkeypatch.setenv("SANDBOX_HTTP_MAX_CONNECTIONS", "77")
    monkeypatch.setenv("SANDBOX_HTTP_SESSIONS", "true")
    assert (Settings().http_max_connections, Settings().http_sessions) == (77, True)
