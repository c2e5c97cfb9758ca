"""The ``execute_js_with_tools`` tool: ``execute_js`` plus a global ``tools`` for the tools of other MCP servers.

It exists only when upstream servers are configured, so that ``execute_js`` keeps its read-only, closed-world
annotations and clients may go on approving it without asking. This tool's annotations are computed from what its
code can call at the moment they are listed (see ``sandbox_server.upstream.policy``), and its description lists
the servers and their tools.
"""

from __future__ import annotations

import copy
from typing import Any

import mcp_types as types

from sandbox_server.charts import Renderer
from sandbox_server.data.folder import DataFolder
from sandbox_server.packages.catalog import Catalog
from sandbox_server.registry import ToolSpec
from sandbox_server.sandbox import WorkerPool
from sandbox_server.sessions import SessionManager
from sandbox_server.settings import Settings
from sandbox_server.tools.execute_js import OUTPUT_SCHEMA, input_schema, structure_argument_error
from sandbox_server.tools.resumable import PausedRuns
from sandbox_server.tools.runs import js_handler
from sandbox_server.upstream.directory import Directory

__all__ = ["NAME", "execute_js_with_tools_tool"]

NAME = "execute_js_with_tools"

_CALL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "server": {"type": "string"},
        "tool": {"type": "string"},
        "outcome": {
            "type": "string",
            "description": "ok, error (the tool's own error), or why it did not run or failed: refused, declined, "
            "invalid_arguments, invalid_result, timeout, unavailable, crashed, too_large, protocol, cancelled (the "
            "execution ended first)",
        },
        "mayHaveCompleted": {
            "type": "boolean",
            "description": "true when the request reached the server and no answer came back (cancelled, timeout, "
            "crashed): it was told to stop (notifications/cancelled), but a server that ignores that may have done it",
        },
        "startedMs": {"type": "number", "description": "when the call began, in ms from the start of the execution"},
        "durationMs": {"type": "number"},
        "argumentBytes": {"type": "integer"},
        "resultBytes": {"type": "integer"},
    },
    "required": ["server", "tool", "outcome", "durationMs"],
}


def _output_schema() -> dict[str, Any]:
    schema = copy.deepcopy(OUTPUT_SCHEMA)
    schema["properties"]["toolCalls"] = {
        "type": "array",
        "description": "the upstream tool calls the code made, in the order they were made",
        "items": _CALL_SCHEMA,
    }
    return schema


def _description(settings: Settings, directory: Directory) -> str:
    # The listing writes each server and tool as code reaches it (`tools["my server"]`, `get_sum` for `get-sum`, or
    # `["get-item"]`), and $search hits say it too, so the text need not explain names that are not identifiers.
    return f"""\
Like execute_js, plus a global `tools` for the MCP tools below: `await tools.server.tool({{...}})`. A result is its \
structured value, else its text (a JSON object or array comes parsed), else {{content, text}} for images and \
resources; every result has .content (the MCP content blocks). A failure or refusal throws ToolError (message, \
code, server, tool). Run independent calls together with Promise.all; return only what the answer needs. \
`await tools.$search("words")` finds tools, `await tools.$describe("server.tool")` gives the full TypeScript \
declaration. Per execution: at most {settings.max_tool_calls} calls, {settings.max_calls_in_flight} at once, \
{settings.tool_call_timeout_s:g} s each.
{directory.listing()}"""


_ARGUMENT_NOTES = {
    "code": "JavaScript or TypeScript; the last expression's value is the result (top-level await works).",
    "timeout_ms": "Time limit in ms.",
    "input": "JSON data, as the global `input`.",
    "session": "A name (or a session.handle) to keep globals between calls.",
    "reset": "With session: start it anew.",
    "files": "Data-folder files to give the code.",
}
"""One short line per argument: a client may show this tool without execute_js beside it."""


def execute_js_with_tools_tool(
    settings: Settings,
    pool: WorkerPool,
    directory: Directory,
    folder: DataFolder | None = None,
    sessions: SessionManager | None = None,
    renderer: Renderer | None = None,
    paused: PausedRuns | None = None,
    packages: Catalog | None = None,
) -> ToolSpec:
    """The tool over ``directory``'s upstream servers, on the same worker pool as ``execute_js`` (and with the same
    npm ``packages``); with ``paused``, runs that need the user's consent on the current revision pause and resume."""
    schema = input_schema(settings, folder is not None, brief=True)
    for key, value in schema["properties"].items():
        if key in _ARGUMENT_NOTES:
            value["description"] = _ARGUMENT_NOTES[key]

    def refresh() -> tuple[str, types.ToolAnnotations]:
        return _description(settings, directory), directory.annotations()

    description, annotations = refresh()
    return ToolSpec(
        name=NAME,
        title="Run JavaScript that calls other MCP servers' tools",
        instruction="the same, and its code can call the tools of the other MCP servers listed in its description "
        "(`await tools.server.tool(args)`): use it to fetch, filter and join their data in one call instead of passing "
        "it through the conversation.",
        description=description,
        input_schema=schema,
        output_schema=_output_schema(),
        handler=js_handler(settings, pool, folder, directory, sessions, renderer, paused, packages),
        icon="execute_js",
        annotations=annotations,
        structure_argument_error=structure_argument_error,
        refresh=refresh,
    )
