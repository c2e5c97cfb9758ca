"""A read-only upstream server with every kind of result a client must handle.

Tools: ``list_records``/``get_record`` (structuredContent with an outputSchema), ``search_text`` (plain text),
``json_text`` (one text block of JSON), ``image``, ``fail`` (``isError``), ``protocol_error`` (JSON-RPC error),
``slow`` (sleeps; counts the cancellations it receives, read back with ``cancelled_count``), ``huge``, ``crash``
(exits mid-call), ``echo``, ``bad_output`` (breaks its own outputSchema), ``add_tool`` (adds a tool and sends
``notifications/tools/list_changed``), ``pid``, ``client_info``, ``getenv``, ``environment``,
``request_header``. ``tools/list`` is paginated, 5 tools a page.

Run: ``python -m tests.upstream.servers.records [--http PORT [--port-file PATH]]``.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from tests.upstream.servers._serve import arguments, run, text

PAGE_SIZE = 5
STATUSES = ("open", "closed", "pending")
RECORDS = [
    {"id": i, "name": f"record-{i:03d}", "status": STATUSES[i % 3], "amount": (i * 37) % 1000 + i / 100}
    for i in range(1, 201)
]
READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "status": {"type": "string", "enum": list(STATUSES)},
        "amount": {"type": "number"},
    },
    "required": ["id", "name", "status", "amount"],
}
# A 1x1 transparent PNG.
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
    )
).decode()


def _tool(name: str, description: str, properties: dict[str, Any] | None = None, **extra: Any) -> types.Tool:
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}, "additionalProperties": False}
    if "required" in extra:
        schema["required"] = extra.pop("required")
    return types.Tool(
        name=name,
        description=description,
        input_schema=schema,
        annotations=extra.pop("annotations", READ_ONLY),
        **extra,
    )


TOOLS = [
    _tool(
        "list_records",
        "List records, optionally only those of one status.",
        {
            "limit": {"type": "integer", "minimum": 1, "maximum": 200},
            "status": {"type": "string", "enum": list(STATUSES)},
        },
        output_schema={
            "type": "object",
            "properties": {"records": {"type": "array", "items": RECORD_SCHEMA}, "total": {"type": "integer"}},
            "required": ["records", "total"],
        },
    ),
    _tool(
        "get_record",
        "One record by id.",
        {"id": {"type": "integer"}},
        required=["id"],
        output_schema={"type": "object", "properties": {"record": RECORD_SCHEMA}, "required": ["record"]},
    ),
    _tool("search_text", "Names containing q, one a line, as plain text.", {"q": {"type": "string"}}, required=["q"]),
    _tool("json_text", "A single text block that is valid JSON."),
    _tool("image", "A 1x1 PNG image."),
    _tool(
        "fail", "A tool error (isError) with the given message.", {"message": {"type": "string"}}, required=["message"]
    ),
    _tool("protocol_error", "Answers with a JSON-RPC error instead of a result."),
    _tool("slow", "Sleeps ms milliseconds; a cancellation is counted.", {"ms": {"type": "integer"}}, required=["ms"]),
    _tool("cancelled_count", "How many slow calls were cancelled, and how many started."),
    _tool("huge", "A text of the given number of bytes.", {"bytes": {"type": "integer"}}, required=["bytes"]),
    _tool("crash", "Exits the server process in the middle of the call."),
    _tool("echo", "Returns its arguments.", {"value": {}}),
    _tool(
        "bad_output",
        "Returns structuredContent that violates its own outputSchema.",
        output_schema={"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]},
    ),
    _tool("add_tool", "Adds a tool and sends notifications/tools/list_changed.", annotations=types.ToolAnnotations()),
    _tool("pid", "The server's process id."),
    _tool("client_info", "The clientInfo the client sent in initialize."),
    _tool("getenv", "The value of an environment variable, or null.", {"name": {"type": "string"}}, required=["name"]),
    _tool("environment", "The names of the server's environment variables."),
    _tool("request_header", "An HTTP request header (HTTP only).", {"name": {"type": "string"}}, required=["name"]),
]
added: list[types.Tool] = []
counts = {"cancelled": 0, "started": 0}


def structured(value: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(content=[text(json.dumps(value))], structured_content=value)


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    tools = TOOLS + added
    start = int(params.cursor) if params is not None and params.cursor else 0
    end = start + PAGE_SIZE
    return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    match params.name:
        case "list_records":
            chosen = [r for r in RECORDS if args.get("status") in (None, r["status"])][: args.get("limit", 200)]
            return structured({"records": chosen, "total": len(chosen)})
        case "get_record":
            found = [r for r in RECORDS if r["id"] == args["id"]]
            if not found:
                return types.CallToolResult(content=[text(f"no record with id {args['id']}")], is_error=True)
            return structured({"record": {**found[0], "details": f"details of {found[0]['name']}"}})
        case "search_text":
            lines = [str(r["name"]) for r in RECORDS if args["q"] in str(r["name"])]
            return types.CallToolResult(content=[text("\n".join(lines) or "nothing found")])
        case "json_text":
            return types.CallToolResult(content=[text(json.dumps({"ok": True, "items": [1, 2, 3]}))])
        case "image":
            return types.CallToolResult(content=[types.ImageContent(type="image", data=PIXEL, mime_type="image/png")])
        case "fail":
            return types.CallToolResult(content=[text(args["message"])], is_error=True)
        case "protocol_error":
            raise MCPError(code=types.INVALID_PARAMS, message="protocol_error always answers with this error")
        case "slow":
            counts["started"] += 1
            try:
                await anyio.sleep(args["ms"] / 1000)
            except anyio.get_cancelled_exc_class():
                counts["cancelled"] += 1
                raise
            return types.CallToolResult(content=[text(f"slept {args['ms']} ms")])
        case "cancelled_count":
            return structured(dict(counts))
        case "huge":
            return types.CallToolResult(content=[text("x" * args["bytes"])])
        case "crash":
            os._exit(3)
        case "echo":
            return structured({"arguments": args})
        case "bad_output":
            return structured({"count": "many"})
        case "add_tool":
            name = f"extra_{len(added) + 1}"
            added.append(_tool(name, "A tool added while the server runs."))
            await ctx.session.send_tool_list_changed()
            return types.CallToolResult(content=[text(f"added {name}")])
        case "pid":
            return structured({"pid": os.getpid()})
        case "client_info":
            params_in = ctx.session.client_params
            info = params_in.client_info.model_dump(mode="json") if params_in is not None else None
            return structured({"client_info": info})
        case "getenv":
            return structured({"value": os.environ.get(args["name"])})
        case "environment":
            return structured({"names": sorted(os.environ)})
        case "request_header":
            request = ctx.request
            headers = getattr(request, "headers", None)
            return structured({"value": headers.get(args["name"]) if headers is not None else None})
        case name if any(tool.name == name for tool in added):
            return types.CallToolResult(content=[text(f"{name} ran")])
    raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")


server: Server[Any] = Server("records", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)

if __name__ == "__main__":
    run(server, arguments())
