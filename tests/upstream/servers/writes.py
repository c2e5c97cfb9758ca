"""An upstream server whose tools change things, each annotated differently, with state that can be read back.

``delete_record`` (destructive), ``create_record`` (not read-only, not destructive, not idempotent), ``touch`` (no
annotations at all: the spec's defaults make it destructive), ``set_flag`` (idempotent, not destructive), and the
read-only ``deleted`` and ``state``, which show whether a side effect happened.

Run: ``python -m tests.upstream.servers.writes [--http PORT [--port-file PATH]]``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from tests.upstream.servers._serve import arguments, run, text

READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


TOOLS = [
    types.Tool(
        name="delete_record",
        description="Delete a record for good.",
        input_schema=_schema({"id": {"type": "integer"}}, ["id"]),
        annotations=types.ToolAnnotations(destructive_hint=True, read_only_hint=False),
    ),
    types.Tool(
        name="create_record",
        description="Create a record; each call creates another.",
        input_schema=_schema({"name": {"type": "string"}, "amount": {"type": "number"}}, ["name"]),
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    ),
    types.Tool(name="touch", description="Mark the store as touched.", input_schema=_schema({}, [])),
    types.Tool(
        name="set_flag",
        description="Set a named flag; setting it twice is the same as once.",
        input_schema=_schema({"name": {"type": "string"}, "value": {"type": "boolean"}}, ["name", "value"]),
        annotations=types.ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
    ),
    types.Tool(
        name="deleted",
        description="The ids deleted so far.",
        input_schema=_schema({}, []),
        annotations=READ_ONLY,
    ),
    types.Tool(
        name="state",
        description="Everything changed so far.",
        input_schema=_schema({}, []),
        annotations=READ_ONLY,
    ),
]
store: dict[str, Any] = {"deleted": [], "created": [], "touched": 0, "flags": {}}


def structured(value: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[text(json.dumps(value))], structured_content=value)


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    match params.name:
        case "delete_record":
            store["deleted"].append(args["id"])
            return types.CallToolResult(content=[text(f"deleted {args['id']}")])
        case "create_record":
            record = {"id": 1000 + len(store["created"]), "name": args["name"], "amount": args.get("amount", 0)}
            store["created"].append(record)
            return structured({"record": record})
        case "touch":
            store["touched"] += 1
            return types.CallToolResult(content=[text("touched")])
        case "set_flag":
            store["flags"][args["name"]] = args["value"]
            return types.CallToolResult(content=[text(f"{args['name']} = {args['value']}")])
        case "deleted":
            return structured({"ids": store["deleted"]})
        case "state":
            return structured(store)
    raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")


server: Server[Any] = Server("writes", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)

if __name__ == "__main__":
    run(server, arguments())
