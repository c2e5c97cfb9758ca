"""Every desktop-client configuration the README shows starts a server that answers, launched the way a desktop
client launches it: the command and arguments as written (placeholders replaced by this checkout's paths), from
``/`` as the working directory, in an environment of HOME and PATH and what the snippet's ``env`` adds.

Snippets whose command is not this server (the upstream file of code mode lists other servers) are not client
configurations; the WSL one (``wsl.exe``) starts the server on Windows and cannot run here.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
PLACEHOLDERS = {
    "/absolute/path/to/.venv/bin/sandbox-server": str(BIN / "sandbox-server"),
    "/home/me/finance": str(ROOT / "examples" / "finance"),
}
NOT_RUNNABLE_HERE = {"wsl.exe": "starts the server inside WSL, on Windows"}


def json_blocks(text: str) -> list[Any]:
    return [json.loads(block) for block in re.findall(r"^\s*```json\n(.*?)^\s*```$", text, re.MULTILINE | re.DOTALL)]


def client_configs(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(a name for the test, the server entry) of each snippet that starts this server."""
    found = []
    for number, block in enumerate(json_blocks(text), start=1):
        servers = block.get("mcpServers", block.get("servers", {})) if isinstance(block, dict) else {}
        for name, entry in servers.items():
            command = Path(str(entry.get("command", ""))).name
            if command == "sandbox-server" or command in NOT_RUNNABLE_HERE:
                found.append((f"block{number}-{name}", entry))
    return found


CONFIGS = client_configs(README.read_text(encoding="utf-8"))


def substituted(value: str) -> str:
    for placeholder, real in PLACEHOLDERS.items():
        value = value.replace(placeholder, real)
    return value


def test_the_readme_shows_client_configs_with_and_without_arguments_and_env() -> None:
    entries = [entry for _, entry in CONFIGS if Path(entry["command"]).name == "sandbox-server"]
    assert len(entries) >= 4
    assert any(entry.get("env") for entry in entries)
    assert any("--data-dir" in entry.get("args", []) for entry in entries)
    assert all(entry["command"] in PLACEHOLDERS for entry in entries), "a command without a known placeholder"


def test_the_config_reader_finds_server_entries_in_both_formats() -> None:
    text = (
        '```json\n{"mcpServers": {"a": {"command": "/x/bin/sandbox-server"}, "b": {"command": "npx"}}}\n```\n'
        '  ```json\n  {"servers": {"c": {"type": "stdio", "command": "sandbox-server"}}}\n  ```\n'
    )
    assert [name for name, _ in client_configs(text)] == ["block1-a", "block2-c"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
@pytest.mark.parametrize(("name", "entry"), [pytest.param(n, e, id=n) for n, e in CONFIGS])
async def test_each_readme_client_config_answers_tools_list_when_launched_as_a_desktop_client_does(
    name: str, entry: dict[str, Any], mode: str, tmp_path: Path
) -> None:
    command = Path(entry["command"]).name
    if command in NOT_RUNNABLE_HERE:
        pytest.skip(f"{entry['command']} {NOT_RUNNABLE_HERE[command]}")
    env = {"HOME": str(tmp_path), "PATH": "/usr/local/bin:/usr/bin:/bin"}
    env.update({key: substituted(str(value)) for key, value in entry.get("env", {}).items()})
    parameters = StdioServerParameters(
        command=substituted(entry["command"]),
        args=[substituted(str(arg)) for arg in entry.get("args", [])],
        env=env,
        cwd="/",
    )
    with anyio.fail_after(60):
        async with Client(parameters, mode=mode) as client:  # type: ignore[arg-type]
            listed = await client.list_tools()
            names = {tool.name for tool in listed.tools}
            assert {"add", "divide", "date_diff", "execute_js"} <= names
            schema = next(tool.input_schema for tool in listed.tools if tool.name == "execute_js")
            data_folder = "--data-dir" in entry.get("args", []) or "SANDBOX_DATA_DIR" in entry.get("env", {})
            assert ("files" in schema["properties"]) == data_folder
            result = await client.call_tool("add", {"a": 40, "b": 2})
            assert result.structured_content is not None and result.structured_content["result"] == "42"
