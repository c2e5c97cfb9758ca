"""What ``sandbox-server tools`` says when a call cannot be made: the server's or the network's own words, and
configuration errors that name the variable or flag the user set."""

from __future__ import annotations

import socket
import subprocess
import sys

import anyio
import pytest

from .servers import http_server, server_env

COMMAND = [sys.executable, "-m", "sandbox_server"]


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=server_env(**env), timeout=120, check=False
    )


async def run_cli_async(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return await anyio.to_thread.run_sync(lambda: run_cli(*args, **env))


def test_an_unknown_tool_prints_the_servers_message_with_the_known_names() -> None:
    done = run_cli("tools", "call", "nosuch")
    assert done.returncode == 1
    assert done.stderr == (
        "sandbox-server: the server answered with an error: Unknown tool: 'nosuch'. Known tools: add, divide, "
        "date_diff, execute_js. (JSON-RPC error -32602)\n"
    )
    assert "TaskGroup" not in done.stderr


def test_a_refused_connection_is_named_with_its_url() -> None:
    with socket.socket() as held:  # bound but not listening: connections to it are refused
        held.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{held.getsockname()[1]}/mcp"
        done = run_cli("tools", "call", "add", "--args", '{"a": 1, "b": 2}', "--url", url)
    assert done.returncode == 1
    assert done.stderr == (
        f"sandbox-server: cannot connect to {url}: connection refused (is the server running and listening there?)\n"
    )


@pytest.mark.anyio
async def test_a_missing_or_wrong_bearer_token_is_reported_as_a_401_with_what_to_set() -> None:
    async with http_server(env=server_env(SANDBOX_AUTH_TOKEN="right-token")) as (base, _):
        missing = await run_cli_async("tools", "call", "add", "--args", '{"a": 1, "b": 2}', "--url", base + "/mcp")
        wrong = await run_cli_async("tools", "list", "--url", base + "/mcp", SANDBOX_AUTH_TOKEN="wrong-token")
        right = await run_cli_async("tools", "call", "nosuch", "--url", base + "/mcp", SANDBOX_AUTH_TOKEN="right-token")
        elsewhere = await run_cli_async("tools", "list", "--url", base + "/other", SANDBOX_AUTH_TOKEN="right-token")
    assert (missing.returncode, wrong.returncode, right.returncode, elsewhere.returncode) == (1, 1, 1, 1)
    assert missing.stderr == "sandbox-server: 401: the server requires a bearer token (set SANDBOX_AUTH_TOKEN)\n"
    assert wrong.stderr == "sandbox-server: 401: the server rejected the bearer token (check SANDBOX_AUTH_TOKEN)\n"
    assert "Unknown tool: 'nosuch'. Known tools: add, divide, date_diff, execute_js." in right.stderr
    assert elsewhere.stderr == (
        f"sandbox-server: 404 Not Found: {base}/other is not an MCP endpoint (this server's is at /mcp)\n"
    )


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        pytest.param(
            ["tools", "list"],
            {"SANDBOX_WORKERS": "abc"},
            "SANDBOX_WORKERS = 'abc': Input should be a valid integer, unable to parse string as an integer "
            "(accepted: from 1 to 256)",
            id="environment-variable",
        ),
        pytest.param(
            ["tools", "list", "--workers", "0"],
            {},
            "--workers = 0: Input should be greater than or equal to 1 (accepted: from 1 to 256)",
            id="flag",
        ),
        pytest.param(
            ["tools", "list", "--default-timeout-ms", "70000"],
            {},
            "--default-timeout-ms (70000) must not exceed SANDBOX_MAX_TIMEOUT_MS (60000)",
            id="rule-across-a-flag-and-a-default",
        ),
        pytest.param(
            ["serve"],
            {"SANDBOX_DEFAULT_TIMEOUT_MS": "9000", "SANDBOX_MAX_TIMEOUT_MS": "8000"},
            "SANDBOX_DEFAULT_TIMEOUT_MS (9000) must not exceed SANDBOX_MAX_TIMEOUT_MS (8000)",
            id="rule-across-two-variables",
        ),
    ],
)
def test_a_configuration_error_names_the_variable_or_flag_that_was_set(
    args: list[str], env: dict[str, str], expected: str
) -> None:
    done = run_cli(*args, **env)
    assert done.returncode == 2
    assert done.stderr == f"sandbox-server: invalid configuration: {expected}\n"
