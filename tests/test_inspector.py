"""The official MCP Inspector CLI, a real third-party client, against the stdio server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from .servers import server_env

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"

pytestmark = pytest.mark.skipif(shutil.which("npx") is None, reason="npm/npx is not installed; the Inspector needs it")


def inspector(*args: str) -> subprocess.CompletedProcess[str]:
    command = [
        "npx", "--yes", INSPECTOR, "--cli",
        "-e", "SANDBOX_WORKERS=1",
        sys.executable, "-m", "sandbox_server",
        *args,
    ]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, env=server_env(), timeout=300, check=False)


def _json(stdout: str) -> dict[str, object]:
    start = stdout.index("{")
    parsed = json.loads(stdout[start:])
    assert isinstance(parsed, dict)
    return parsed


def test_inspector_lists_the_tools() -> None:
    done = inspector("--method", "tools/list")
    assert done.returncode == 0, done.stderr
    tools = _json(done.stdout)["tools"]
    assert isinstance(tools, list)
    assert {tool["name"] for tool in tools} == {"add", "divide", "date_diff", "execute_js"}


def test_inspector_calls_add() -> None:
    done = inspector("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=40", "--tool-arg", "b=2")
    assert done.returncode == 0, done.stderr
    result = _json(done.stdout)
    assert result["structuredContent"] == {**result["structuredContent"], "result": "42"}  # type: ignore[dict-item]


def test_inspector_calls_execute_js() -> None:
    done = inspector("--method", "tools/call", "--tool-name", "execute_js", "--tool-arg", "code=[3,1,2].sort()")
    assert done.returncode == 0, done.stderr
    result = _json(done.stdout)
    assert result["structuredContent"]["result"] == [1, 2, 3]  # type: ignore[index]


def test_inspector_sees_division_by_zero_as_is_error() -> None:
    done = inspector("--method", "tools/call", "--tool-name", "divide", "--tool-arg", "a=1", "--tool-arg", "b=0")
    result = _json(done.stdout)
    assert result["isError"] is True
    assert done.returncode != 0
