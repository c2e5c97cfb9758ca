"""An upstream server whose slow tools make a side effect at their end, and which writes down everything that
happens to each call, so that a test can tell whether a cancelled call was told so and whether its effect happened.

Every event is one JSON line appended to the file of ``--events PATH`` (written whole and flushed, so another
process can read it at any time): ``{"event": "started" | "cancelled" | "effect" | "finished", "id": ..., "notified":
<whether notifications/cancelled had arrived for the call>, "at": <time.time()>}``.

Tools (``id`` names the call in the events; ``ms`` defaults to 3000):
- ``transfer`` (destructive): sleeps ``ms``, then makes its effect. Cancelled, it stops: ``cancelled``, no effect.
- ``stubborn_transfer`` (destructive): the same, but it ignores cancellation and makes its effect anyway.
- ``lookup`` (read-only): sleeps ``ms``, then ``finished``; cancelled, ``cancelled``.
- ``until_started`` (read-only): returns once the call ``id`` has started, so code can act while it is in flight.

Run: ``python -m tests.upstream.servers.effects --events PATH [--http PORT [--port-file PATH]]``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import anyio
import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.dispatcher import coerce_request_id
from mcp.shared.exceptions import MCPError

from tests.upstream.servers._serve import arguments, run, text

DEFAULT_MS = 3000
READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
DESTRUCTIVE = types.ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)
_CALL = {"id": {"type": "string"}, "ms": {"type": "integer", "minimum": 0}}


def _tool(name: str, description: str, annotations: types.ToolAnnotations, properties: dict[str, Any]) -> types.Tool:
    schema = {"type": "object", "properties": properties, "required": ["id"], "additionalProperties": False}
    return types.Tool(name=name, description=description, input_schema=schema, annotations=annotations)


TOOLS = [
    _tool("transfer", "Waits, then moves money (the side effect); stops when cancelled.", DESTRUCTIVE, _CALL),
    _tool("stubborn_transfer", "Waits, then moves money even when cancelled.", DESTRUCTIVE, _CALL),
    _tool("lookup", "Waits, then answers; stops when cancelled.", READ_ONLY, _CALL),
    _tool("until_started", "Returns once the call named id has started.", READ_ONLY, {"id": {"type": "string"}}),
]
NOTICE_WAIT_S = 2.0
"""How long a cancelled handler waits to see the notification that cancelled it (the SDK interrupts the handler
before it passes the notification on); without one within this time, its cancellation had another cause."""
events_file: Path | None = None
started: dict[str, anyio.Event] = {}
cancellations: dict[Any, anyio.Event] = {}


def record(event: str, call_id: str, notified: bool) -> None:
    assert events_file is not None
    line = json.dumps({"event": event, "id": call_id, "notified": notified, "at": time.time()})
    with events_file.open("a", encoding="utf-8") as out:
        out.write(line + "\n")


def _started(call_id: str) -> anyio.Event:
    return started.setdefault(call_id, anyio.Event())


def _cancellation(request_id: Any) -> anyio.Event:
    return cancellations.setdefault(coerce_request_id(request_id), anyio.Event())


async def see_cancellations(ctx: ServerRequestContext[Any], call_next: CallNext) -> HandlerResult:
    """Middleware: note each ``notifications/cancelled`` by the request id it names."""
    if ctx.method == "notifications/cancelled" and isinstance(ctx.params, dict) and "requestId" in ctx.params:
        _cancellation(ctx.params["requestId"]).set()
    return await call_next(ctx)


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    args = params.arguments or {}
    call_id = str(args.get("id"))
    seconds = int(args.get("ms", DEFAULT_MS)) / 1000
    if params.name == "until_started":
        await _started(call_id).wait()
        return types.CallToolResult(content=[text(f"{call_id} started")])
    if params.name not in ("transfer", "stubborn_transfer", "lookup"):
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    notice = _cancellation(ctx.request_id)
    record("started", call_id, notice.is_set())
    _started(call_id).set()
    try:
        with anyio.CancelScope(shield=params.name == "stubborn_transfer"):
            await anyio.sleep(seconds)
    except anyio.get_cancelled_exc_class():
        with anyio.move_on_after(NOTICE_WAIT_S, shield=True):
            await notice.wait()
        record("cancelled", call_id, notice.is_set())
        raise
    record("finished" if params.name == "lookup" else "effect", call_id, notice.is_set())
    return types.CallToolResult(content=[text(f"{params.name} {call_id} done")])


server: Server[Any] = Server("effects", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
server.middleware.append(see_cancellations)

if __name__ == "__main__":
    options = arguments(**{"--events": {"type": Path, "required": True}})
    events_file = options.events
    run(server, options)
