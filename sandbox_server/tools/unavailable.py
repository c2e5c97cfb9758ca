"""What a call is told when it names a tool or an argument that exists only with a setting this server was not
started with: the flag that adds it, so that the user who reads the error knows what to change."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from sandbox_server.tools.execute_js_with_tools import NAME as EXECUTE_JS_WITH_TOOLS

__all__ = ["unavailable_arguments", "unavailable_tool", "unknown_tool"]

_TOOLS = MappingProxyType(
    {
        EXECUTE_JS_WITH_TOOLS: "It exists only when the server is started with --upstream FILE (a JSON file of "
        "other MCP servers, in the mcpServers format, whose tools the code calls).",
    }
)
_JAVASCRIPT_ARGUMENTS = MappingProxyType(
    {
        "files": "'files' names files of a data folder, and this server has none: start it with --data-dir PATH "
        "(or SANDBOX_DATA_DIR)",
    }
)


def unavailable_tool(name: str) -> str | None:
    """Why the tool ``name`` is missing and the flag that adds it, as a sentence; None for a name no setting adds."""
    return _TOOLS.get(name)


def unknown_tool(name: str, known: Iterable[str]) -> str:
    """The error message for a call of the tool ``name``, which this server does not have (it has ``known``)."""
    missing = unavailable_tool(name)
    return f"Unknown tool: {name!r}. Known tools: {', '.join(known)}." + (f" {missing}" if missing else "")


def unavailable_arguments(tool: str) -> Mapping[str, str]:
    """The arguments of ``tool`` that exist only with a setting, each with the flag that adds it."""
    return _JAVASCRIPT_ARGUMENTS if tool in ("execute_js", EXECUTE_JS_WITH_TOOLS) else MappingProxyType({})
