"""The server's instructions are each published tool's own line, in the order the tools are listed, with a paragraph
on the data folder when there is one: the same text, word for word, as the hand-written instructions had."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.registry import Registry
from sandbox_server.server import App, instructions_for
from sandbox_server.tools import deterministic_tools

from .codemode.conftest import stdio_server, write_config
from .conftest import REVISIONS, make_settings

pytestmark = pytest.mark.anyio

# The text as it was written by hand, before each tool carried its own line.
PLAIN = """\
Use these tools instead of computing in your head; their answers are exact.
- add: sum of two integers of any size (pass big integers as strings of digits).
- divide: exact decimal division with the reduced fraction, quotient and remainder.
- date_diff: calendar and elapsed difference between two dates or date-times, with business days and time zones.
- execute_js: anything else that needs real computation (aggregating data, big numbers with BigInt, regular \
expressions, parsing, date and time-zone math with Intl or Temporal): write a short JavaScript snippet; its last \
expression (or `return` value) is the result, console.log output is returned too. Pass data in `input`.\
"""
UPSTREAM = """
- execute_js_with_tools: the same, and its code can call the tools of the other MCP servers listed in its \
description (`await tools.server.tool(args)`): use it to fetch, filter and join their data in one call instead \
of passing it through the conversation.\
"""
DATA_FOLDER = """
The user shared a data folder: its files are listed as resources (sandbox-data:/// URIs). To compute over them, \
name them in execute_js's `files` argument (paths or patterns such as `*.csv`) and read the global `files` \
instead of copying their contents into `input`.\
"""


@pytest.mark.parametrize(
    ("upstream", "folder", "expected"),
    [
        pytest.param(False, False, PLAIN, id="plain"),
        pytest.param(True, False, PLAIN + UPSTREAM, id="upstream"),
        pytest.param(False, True, PLAIN + DATA_FOLDER, id="data-folder"),
        pytest.param(True, True, PLAIN + UPSTREAM + DATA_FOLDER, id="both"),
    ],
)
def test_the_instructions_are_the_hand_written_text_for_the_same_tools(
    tmp_path: Path, upstream: bool, folder: bool, expected: str
) -> None:
    settings: dict[str, object] = {"workers": 1}
    if upstream:
        settings["upstream"] = write_config(tmp_path, {"records": stdio_server("records")})
    if folder:
        (tmp_path / "data").mkdir()
        settings["data_dir"] = tmp_path / "data"
    assert instructions_for(App.create(make_settings(**settings))) == expected


def test_a_tool_without_an_instruction_line_is_not_named_and_the_order_follows_the_registry() -> None:
    app = App.create(make_settings(workers=1))
    add, divide, date_diff = deterministic_tools()
    app.registry = Registry([date_diff, add, replace(divide, instruction="")])
    lines = instructions_for(app).splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == ["- date_diff", "- add"]


@pytest.mark.parametrize("mode", REVISIONS)
async def test_a_client_receives_the_instructions_on_both_revisions(mode: str) -> None:
    async with Client(build_server(make_settings(workers=1)), mode=mode) as client:  # type: ignore[arg-type]
        assert client.instructions == PLAIN
