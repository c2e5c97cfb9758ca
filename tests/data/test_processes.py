"""The data folder through real server processes: stdio and Streamable HTTP clients, and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from ..datafolders import SALES_CSV, hostile_folder, snapshot
from ..servers import http_server, server_env

pytestmark = pytest.mark.anyio

TOTALS = "const t = {}; for (const r of files['sales.csv'].rows) t[r.category] = (t[r.category] || 0) + +r.amount; t"


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    with hostile_folder(tmp_path) as folder:
        yield folder


@asynccontextmanager
async def connected(transport: str, data: Path) -> AsyncIterator[Client]:
    if transport == "stdio":
        parameters = StdioServerParameters(
            command=sys.executable, args=["-m", "sandbox_server"], env=server_env(SANDBOX_DATA_DIR=str(data))
        )
        async with Client(parameters, mode="legacy") as client:
            yield client
        return
    async with http_server("--data-dir", str(data)) as (base, _), Client(base + "/mcp", mode="legacy") as client:
        yield client


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_resources_and_files_work_over_each_transport(transport: str, data: Path) -> None:
    before = snapshot(data)
    with anyio.fail_after(90):
        async with connected(transport, data) as client:
            assert client.server_capabilities is not None and client.server_capabilities.resources is not None
            listed = await client.list_resources()
            names = [resource.name for resource in listed.resources]
            assert "sales.csv" in names and ".env" not in names and "link-out" not in names and "pipe" not in names
            read = await client.read_resource("sandbox-data:///sales.csv")
            assert read.contents[0].text == SALES_CSV  # type: ignore[union-attr]
            with pytest.raises(MCPError, match="not inside the data folder"):
                await client.read_resource("sandbox-data:///link-out")

            result = await client.call_tool("execute_js", {"code": TOTALS, "files": ["*.csv"]})
            assert result.structured_content is not None
            assert result.structured_content["result"] == {"food": 19.75, "rent": 800}
            refused = await client.call_tool("execute_js", {"code": "1", "files": ["../outside/secret.txt"]})
            assert refused.is_error
            assert "not inside the data folder" in refused.content[0].text  # type: ignore[union-attr]
            fifo = await client.call_tool("execute_js", {"code": "1", "files": ["pipe"]})
            assert fifo.is_error
    assert snapshot(data) == before


def run_cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox_server", *args], capture_output=True, env=server_env(), timeout=120, check=False
    )


def test_the_command_line_calls_execute_js_with_files_and_reads_resources(data: Path) -> None:
    arguments = json.dumps({"code": TOTALS, "files": ["sales.csv"]})
    called = run_cli("tools", "call", "execute_js", "--data-dir", str(data), "--args", arguments, "--json")
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"]["result"] == {"food": 19.75, "rent": 800}

    listed = run_cli("resources", "list", "--data-dir", str(data), "--json")
    assert listed.returncode == 0, listed.stderr
    assert "sandbox-data:///reports/2025.json" in [item["uri"] for item in json.loads(listed.stdout)]

    text = run_cli("resources", "read", "sales.csv", "--data-dir", str(data))
    assert text.returncode == 0, text.stderr
    assert text.stdout.decode() == SALES_CSV
    blob = run_cli("resources", "read", "sandbox-data:///blob.bin", "--data-dir", str(data))
    assert blob.stdout == (data / "blob.bin").read_bytes()

    refused = run_cli("resources", "read", ".env", "--data-dir", str(data))
    assert refused.returncode == 1
    assert b"hidden files" in refused.stderr


def test_resources_commands_need_a_data_folder() -> None:
    done = run_cli("resources", "list")
    assert done.returncode == 2
    assert b"--data-dir" in done.stderr


def test_a_data_folder_that_does_not_exist_is_a_configuration_error(tmp_path: Path) -> None:
    done = run_cli("tools", "list", "--data-dir", str(tmp_path / "absent"))
    assert done.returncode == 2
    assert b"--data-dir" in done.stderr and b"does not exist" in done.stderr
