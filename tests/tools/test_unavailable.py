"""A tool or an argument that exists only with a setting the server was not started with: the error names the flag
that adds it, on both revisions of the protocol."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sandbox_server import build_server

from ..conftest import make_settings

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_calling_execute_js_with_tools_without_upstream_names_the_upstream_flag(mode: str) -> None:
    async with Client(build_server(make_settings(workers=1)), mode=mode) as client:  # type: ignore[arg-type]
        with pytest.raises(MCPError) as caught:
            await client.call_tool("execute_js_with_tools", {"code": "1"})
    assert "Unknown tool: 'execute_js_with_tools'" in caught.value.message
    assert "started with --upstream FILE" in caught.value.message


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_unknown_tool_no_setting_adds_gets_no_hint(mode: str) -> None:
    async with Client(build_server(make_settings(workers=1)), mode=mode) as client:  # type: ignore[arg-type]
        with pytest.raises(MCPError) as caught:
            await client.call_tool("nosuch", {})
    assert caught.value.message == "Unknown tool: 'nosuch'. Known tools: add, divide, date_diff, execute_js."


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_files_without_a_data_folder_is_an_argument_error_naming_the_data_dir_flag(mode: str) -> None:
    async with Client(build_server(make_settings(workers=1)), mode=mode) as client:  # type: ignore[arg-type]
        result = await client.call_tool("execute_js", {"code": "1", "files": ["sales.csv"]})
        plain = await client.call_tool("add", {"a": 1, "b": 2, "files": ["sales.csv"]})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "unexpected argument 'files'" in text
    assert "start it with --data-dir PATH (or SANDBOX_DATA_DIR)" in text
    assert plain.is_error and "--data-dir" not in plain.content[0].text  # type: ignore[union-attr]
