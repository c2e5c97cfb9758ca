"""Stop a tool call whose HTTP client has gone away or cancelled it.

Over HTTP the client of a ``tools/call`` waits on the POST that carried it. When that connection closes before the
answer, nobody can receive the answer any more (this server keeps no event store to replay it from), so running
on would only keep a worker busy up to the call's time limit. The SDK (mcp 2.3.0) stops the handler itself only in
some cases: in stateless mode with a streamed response the transport is torn down when the stream ends, but with a
plain JSON response nothing watches the connection, and with sessions the handler belongs to the session, not to
the POST. :class:`CallCancellation`, a server middleware, covers every case the same way: while a ``tools/call``
runs, it waits for the POST's ``http.disconnect`` and then cancels the call, which kills the worker running it
(see ``WorkerPool.run``) and frees it for the next call.

Clients on the 2025 revisions cancel with ``notifications/cancelled`` instead, in a POST of its own, and keep the
call's connection open. With sessions the SDK routes it within the session. Without sessions each POST has a
dispatcher of its own and the notification finds nothing; matching it by request id alone would let one client
cancel another's call (every client numbers its requests from the same start). So the stateless server gives each
client that initializes a random ``Mcp-Session-Id`` that it keeps no state for (see
:mod:`.admission`); clients send it back with every request, and this middleware matches a
cancellation to the running call with the same id and request id, on this replica.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.exceptions import MCPError
from mcp_types import RequestId
from starlette.requests import Request

__all__ = ["CANCELLED", "CallCancellation"]

logger = logging.getLogger(__name__)

CANCELLED = -32800
"""The code of the error that ends a call stopped here (the SDK's code for a cancelled request). The client has
left or cancelled and does not read it; the dispatcher needs an outcome."""


class CallCancellation:
    """Server middleware: cancel a running ``tools/call`` when its client disconnects or (without sessions) when
    ``notifications/cancelled`` names it under the same ``Mcp-Session-Id``.

    The middleware API of the SDK is marked provisional in mcp 2.3.0; this class uses only ``ctx.method``,
    ``ctx.params``, ``ctx.request_id``, ``ctx.request`` (the Starlette request of the POST) and ``call_next``.
    """

    def __init__(self, *, route_cancellations: bool) -> None:
        self._route_cancellations = route_cancellations
        self._running: dict[tuple[str, RequestId], anyio.CancelScope] = {}

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        request = ctx.request
        if not isinstance(request, Request):
            return await call_next(ctx)
        if ctx.method == "notifications/cancelled" and self._route_cancellations:
            self._cancel(request, ctx.params)
            return await call_next(ctx)
        if ctx.method != "tools/call" or ctx.request_id is None:
            return await call_next(ctx)
        result: HandlerResult = None
        finished = False
        failure: Exception | None = None
        key = self._key(request, ctx.request_id)
        async with anyio.create_task_group() as group:

            async def watch() -> None:
                # The transport has read the whole body; from here receive() returns only when the client goes.
                while (await request.receive())["type"] != "http.disconnect":
                    pass
                logger.info("the client of request %r disconnected; stopping its tool call", ctx.request_id)
                group.cancel_scope.cancel()

            group.start_soon(watch)
            if key is not None:
                self._running[key] = group.cancel_scope
            try:
                result = await call_next(ctx)
                finished = True
            except Exception as exc:
                # Raised again below: leaving the task group with it would wrap it in an exception group, and
                # the dispatcher would answer "unhandled errors in a TaskGroup" instead of its JSON-RPC error.
                failure = exc
                finished = True
            finally:
                if key is not None and self._running.get(key) is group.cancel_scope:
                    del self._running[key]
                group.cancel_scope.cancel()
        if failure is not None:
            raise failure
        if not finished:
            raise MCPError(code=CANCELLED, message="the call was cancelled, or its client closed the connection")
        return result

    def _key(self, request: Request, request_id: RequestId) -> tuple[str, RequestId] | None:
        session = request.headers.get(MCP_SESSION_ID_HEADER)
        if not self._route_cancellations or not session:
            return None
        return session, coerce_request_id(request_id)

    def _cancel(self, request: Request, params: Any) -> None:
        request_id = as_request_id(params.get("requestId")) if isinstance(params, Mapping) else None
        key = self._key(request, request_id) if request_id is not None else None
        scope = self._running.get(key) if key is not None else None
        if scope is None:
            return  # finished already, or never seen here (another replica, another client): nothing to stop
        logger.info("request %r was cancelled by its client; stopping its tool call", request_id)
        scope.cancel()
