"""Stop a tool call whose HTTP client has gone away.

Over HTTP the client of a ``tools/call`` waits on the POST that carried it. When that connection closes before the
answer, nobody can receive the answer any more (this server keeps no event store to replay it from), so running
on would only keep a worker busy up to the call's time limit. The SDK (mcp 2.3.0) stops the handler itself only in
some cases: in stateless mode with a streamed response the transport is torn down when the stream ends, but with a
plain JSON response nothing watches the connection, and with sessions the handler belongs to the session, not to
the POST. :class:`DisconnectCancellation`, a server middleware, covers every case the same way: while a
``tools/call`` runs, it waits for the POST's ``http.disconnect`` and then cancels the call, which kills the worker
running it (see ``WorkerPool.run``) and frees it for the next call.

(An explicit ``notifications/cancelled`` is routed by the SDK within a session; stateless mode has no session to
route it in, and matching it by request id alone would let one client cancel another's call, so there a client
cancels by closing the request's connection, which is what the official SDK clients do when a call is abandoned.)
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from starlette.requests import Request

__all__ = ["CLIENT_GONE", "DisconnectCancellation"]

logger = logging.getLogger(__name__)

CLIENT_GONE = -32800
"""The code of the error that ends a call whose client disconnected (the SDK's code for a cancelled request);
nobody reads it, but the dispatcher needs an outcome."""


class DisconnectCancellation:
    """Server middleware: cancel a running ``tools/call`` when the connection of the POST that carried it closes.

    The middleware API of the SDK is marked provisional in mcp 2.3.0; this class uses only ``ctx.method``,
    ``ctx.request`` (the Starlette request of the POST) and ``call_next``.
    """

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        request = ctx.request
        if ctx.method != "tools/call" or not isinstance(request, Request):
            return await call_next(ctx)
        result: HandlerResult = None
        finished = False
        async with anyio.create_task_group() as group:

            async def watch() -> None:
                # The transport has read the whole body; from here receive() returns only when the client goes.
                while (await request.receive())["type"] != "http.disconnect":
                    pass
                logger.info("the client of request %r disconnected; stopping its tool call", ctx.request_id)
                group.cancel_scope.cancel()

            group.start_soon(watch)
            result = await call_next(ctx)
            finished = True
            group.cancel_scope.cancel()
        if not finished:
            raise MCPError(code=CLIENT_GONE, message="the client closed the connection; the call was stopped")
        return result
