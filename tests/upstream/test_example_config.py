"""The code-mode example in ``examples/``: its upstream file loads with the server's own loader, names the two
reference servers its walkthrough runs, and every file the walkthrough's commands name exists."""

from __future__ import annotations

import re
from pathlib import Path

from sandbox_server.upstream.config import load_upstream_config

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"


def test_the_example_upstream_file_loads_and_starts_both_reference_servers_through_npx() -> None:
    configs = {config.name: config for config in load_upstream_config(EXAMPLES / "upstream.json")}
    assert sorted(configs) == ["everything", "files"]
    for config in configs.values():
        assert (config.transport, config.command, config.args[0]) == ("stdio", "npx", "-y")
        assert config.side_effects == "refuse" and config.tools is None
    assert configs["everything"].args[1:] == ("@modelcontextprotocol/server-everything",)
    package, folder = configs["files"].args[1:]
    assert package == "@modelcontextprotocol/server-filesystem"
    assert (ROOT / folder / "exports" / "bank-2025.csv").is_file(), "the folder is relative to the checkout's root"


def test_the_example_code_calls_only_tools_of_the_servers_the_file_lists() -> None:
    names = {config.name for config in load_upstream_config(EXAMPLES / "upstream.json")}
    code = (EXAMPLES / "spending.js").read_text(encoding="utf-8")
    called = set(re.findall(r"\btools\.(\w+)", code))
    assert called and called <= names


def test_every_file_the_walkthrough_commands_name_exists() -> None:
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"(?:--upstream|--code-file|--data-dir) (examples/[\w./-]+)", text))
    assert {"examples/upstream.json", "examples/spending.js"} <= named
    assert sorted(path for path in named if not (ROOT / path).exists()) == []
