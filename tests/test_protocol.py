"""Protocol behaviour through the SDK's in-memory client: handshake, listing, validation, errors."""

from __future__ import annotations

import base64
import dataclasses
import re
from typing import Any

import mcp_types as types
import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError

from sandbox_server import build_server
from sandbox_server.registry import CallContext, Registry
from sandbox_server.results import ToolResult
from sandbox_server.server import App

from .conftest import make_settings

pytestmark = pytest.mark.anyio

TOOL_NAMES = {"add", "divide", "date_diff", "execute_js"}


async def test_initialize_reports_name_title_version_icon_and_instructions(client: Client) -> None:
    info = client.server_info
    assert info is not None
    assert info.name == "sandbox-server"
    assert info.title
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", info.version)
    assert info.icons and all(icon.src.startswith("data:image/") for icon in info.icons)
    instructions = client.instructions or ""
    for name in TOOL_NAMES:
        assert name in instructions


async def test_every_tool_is_published_with_schemas_annotations_and_icons(client: Client) -> None:
    listed = await client.list_tools()
    assert {tool.name for tool in listed.tools} == TOOL_NAMES
    for tool in listed.tools:
        assert tool.title and tool.description and "xample" in tool.description, tool.name
        schema = tool.input_schema
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool.name}.{name} has no description"
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        Draft202012Validator.check_schema(tool.output_schema)
        annotations = tool.annotations
        assert annotations is not None
        assert annotations.read_only_hint is True
        assert annotations.destructive_hint is False
        assert annotations.idempotent_hint is True
        assert annotations.open_world_hint is False
        assert tool.icons
        for icon in tool.icons:
            header, _, payload = icon.src.partition(",")
            assert header == f"data:{icon.mime_type};base64"
            data = base64.b64decode(payload, validate=True)
            assert data.startswith(b"\x89PNG\r\n\x1a\n") or data.lstrip().startswith((b"<svg", b"<?xml"))
            assert icon.sizes


async def test_unknown_tool_is_a_jsonrpc_invalid_params_error(client: Client) -> None:
    with pytest.raises(MCPError) as caught:
        await client.call_tool("multiply", {"a": 1, "b": 2})
    assert caught.value.code == types.INVALID_PARAMS
    assert "multiply" in caught.value.message
    assert "add" in caught.value.message


@pytest.mark.parametrize(
    ("tool", "arguments", "fragments"),
    [
        pytest.param("add", {"a": 1}, ["missing required argument 'b'"], id="missing"),
        pytest.param("add", {"a": 1, "b": 2, "c": 3}, ["unexpected argument 'c'", "a, b"], id="extra"),
        pytest.param("add", {"a": True, "b": [1]}, ["'a'", "true", "'b'", "[1]"], id="every-bad-field-named"),
        pytest.param("execute_js", {"code": ""}, ["'code'"], id="empty-code"),
        pytest.param("execute_js", {"code": "1", "timeout_ms": "5"}, ["'timeout_ms'", "integer"], id="string-timeout"),
        pytest.param("execute_js", {"code": "1", "timeout_ms": 0}, ["'timeout_ms'", "minimum"], id="zero-timeout"),
        pytest.param("execute_js", {"code": "1", "timeout_ms": -5}, ["'timeout_ms'"], id="negative-timeout"),
    ],
)
async def test_invalid_arguments_are_a_tool_error_naming_each_field(
    client: Client, tool: str, arguments: dict[str, object], fragments: list[str]
) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error is True
    text = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith("Error: Invalid arguments for " + tool)
    for fragment in fragments:
        assert fragment in text


async def test_execute_js_argument_errors_carry_a_structured_error_of_kind_arguments(client: Client) -> None:
    result = await client.call_tool("execute_js", {"cod": "1"})
    assert result.is_error is True
    structured = result.structured_content
    assert structured is not None
    assert structured["ok"] is False
    assert structured["error"]["kind"] == "arguments"
    assert any("'cod'" in problem for problem in structured["error"]["problems"])


async def test_a_tool_that_raises_unexpectedly_becomes_an_error_result_and_the_server_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(arguments: dict[str, Any], context: CallContext) -> ToolResult:
        raise RuntimeError("boom")

    app = App.create(make_settings(workers=1))
    specs = [dataclasses.replace(spec, handler=broken) if spec.name == "add" else spec for spec in app.registry]
    app.registry = Registry(specs)
    async with Client(build_server(app=app), mode="legacy") as connected:
        result = await connected.call_tool("add", {"a": 1, "b": 2})
        assert result.is_error is True
        text = result.content[0].text  # type: ignore[union-attr]
        assert "internal error" in text
        assert "boom" not in text
        again = await connected.call_tool("divide", {"a": 1, "b": 4})
        assert again.is_error is False
    assert any(record.exc_info and "boom" in str(record.exc_info[1]) for record in caplog.records)


async def test_newer_protocol_revisions_negotiated_by_the_sdk_keep_working() -> None:
    async with Client(build_server(make_settings(workers=1))) as modern:
        listed = await modern.list_tools()
        assert {tool.name for tool in listed.tools} == TOOL_NAMES
        result = await modern.call_tool("add", {"a": 2, "b": 3})
        assert result.is_error is False
        assert result.structured_content is not None
