"""An upstream entry that would start this server itself is refused, and entries that only mention its name are not."""

from __future__ import annotations

import pytest

from sandbox_server.upstream.config import parse_upstream_config
from sandbox_server.upstream.itself import runs_this_server

STARTS_ITSELF = [
    pytest.param("sandbox-server", [], id="console-script"),
    pytest.param("/home/me/.venv/bin/sandbox-server", ["--upstream", "desktop.json"], id="script-path"),
    pytest.param("C:\\Tools\\sandbox-server.exe", [], id="windows-exe"),
    pytest.param("python3", ["-m", "sandbox_server"], id="python-m"),
    pytest.param("python", ["-u", "-msandbox_server.cli"], id="python-m-joined-submodule"),
    pytest.param("/usr/bin/python3.12", ["/home/me/.venv/bin/sandbox-server"], id="python-runs-the-script"),
    pytest.param("uvx", ["mcp-v8-sandbox"], id="uvx-package"),
    pytest.param("uvx", ["--from", "mcp-v8-sandbox==0.1.0", "sandbox-server"], id="uvx-from"),
    pytest.param("uvx", ["--from=mcp_v8_sandbox", "anything"], id="uvx-from-equals-normalised"),
    pytest.param("uv", ["run", "--directory", "/w/project", "sandbox-server"], id="uv-run"),
    pytest.param("uv", ["run", "python", "-m", "sandbox_server"], id="uv-run-python"),
    pytest.param("pipx", ["run", "mcp-v8-sandbox"], id="pipx-run"),
    pytest.param("npx", ["-y", "mcp-v8-sandbox@latest"], id="npx-package"),
    pytest.param("env", ["SANDBOX_WORKERS=2", "sandbox-server"], id="env"),
    pytest.param("sh", ["-c", "cd /w && exec sandbox-server --transport stdio"], id="shell-script"),
    pytest.param("cmd.exe", ["/c", "sandbox-server"], id="windows-shell"),
]

OTHER_SERVERS = [
    pytest.param("npx", ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/sandbox-server"], id="a-folder"),
    pytest.param("uvx", ["mcp-server-sqlite", "--db-path", "sandbox-server.db"], id="a-file-argument"),
    pytest.param("python", ["-m", "mcp_server_time"], id="another-module"),
    pytest.param("python", ["server.py", "-m", "sandbox_server"], id="a-scripts-own-arguments"),
    pytest.param("node", ["sandbox-server.js"], id="a-similar-script"),
    pytest.param("docker", ["run", "-i", "sandbox-server"], id="a-container-image"),
    pytest.param("uvx", ["mcp-v8-sandbox-client"], id="a-longer-package-name"),
    pytest.param("sh", ["-c", "echo sandbox-server"], id="a-script-that-only-says-the-name"),
]


@pytest.mark.parametrize(("command", "args"), STARTS_ITSELF)
def test_a_command_that_starts_this_server_is_recognised(command: str, args: list[str]) -> None:
    assert runs_this_server(command, args) is not None


@pytest.mark.parametrize(("command", "args"), OTHER_SERVERS)
def test_a_command_that_only_mentions_the_name_is_another_server(command: str, args: list[str]) -> None:
    assert runs_this_server(command, args) is None


def test_an_entry_that_starts_this_server_is_unavailable_saying_why_and_the_others_load() -> None:
    servers = {
        "sandbox": {"command": "uvx", "args": ["mcp-v8-sandbox"]},
        "time": {"command": "uvx", "args": ["mcp-server-time"]},
    }
    itself, other = parse_upstream_config({"mcpServers": servers}, "claude_desktop_config.json", environ={})
    assert itself.problem is not None
    assert "'command'" in itself.problem and "starts this server itself" in itself.problem
    assert "mcp-v8-sandbox through uvx" in itself.problem and '"disabled": true' in itself.problem
    assert other.problem is None and other.command == "uvx"
