"""The official MCP Inspector CLI, a real third-party client, against the stdio server."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .servers import server_env

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"

pytestmark = pytest.mark.skipif(shutil.which("npx") is None, reason="npm/npx is not installed; the Inspector needs it")


def inspector(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the Inspector CLI against a fresh server; leading ``-e KEY=VALUE`` pairs in ``args`` go to the server."""
    settings: list[str] = []
    while len(args) >= 2 and args[0] == "-e":
        settings += args[:2]
        args = args[2:]
    command = [
        "npx", "--yes", INSPECTOR, "--cli",
        "-e", "SANDBOX_WORKERS=1", *settings,
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


def test_inspector_lists_and_reads_the_data_folder_and_passes_files(tmp_path: Path) -> None:
    (tmp_path / "sales.csv").write_text("category,amount\nfood,2.5\nrent,800\nfood,7.5\n")
    folder = ("-e", f"SANDBOX_DATA_DIR={tmp_path}")
    listed = inspector(*folder, "--method", "resources/list")
    assert listed.returncode == 0, listed.stderr
    size = (tmp_path / "sales.csv").stat().st_size
    assert _json(listed.stdout)["resources"] == [
        {
            "name": "sales.csv",
            "title": "sales.csv",
            "uri": "sandbox-data:///sales.csv",
            "mimeType": "text/csv",
            "size": size,
        }
    ]
    read = inspector(*folder, "--method", "resources/read", "--uri", "sandbox-data:///sales.csv")
    assert read.returncode == 0, read.stderr
    assert _json(read.stdout)["contents"] == [
        {"uri": "sandbox-data:///sales.csv", "mimeType": "text/csv", "text": (tmp_path / "sales.csv").read_text()}
    ]
    code = "files['sales.csv'].rows.filter(r => r.category === 'food').reduce((t, r) => t + Number(r.amount), 0)"
    called = inspector(
        *folder, "--method", "tools/call", "--tool-name", "execute_js",
        "--tool-arg", f"code={code}", "--tool-arg", 'files=["*.csv"]',
    )  # fmt: skip
    assert called.returncode == 0, called.stderr
    assert _json(called.stdout)["structuredContent"]["result"] == 10
