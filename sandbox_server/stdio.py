"""Serving over stdio, with the shutdown the protocol's users expect.

The SDK's stdio transport stops as soon as stdin reaches end-of-file, dropping requests still being worked on,
and it ignores lines that are not JSON. Between the transport and the server this module puts a thin relay that

- answers an unparseable line with a JSON-RPC parse error (``-32700``, ``id: null``), as JSON-RPC 2.0 requires;
- on end-of-input or SIGTERM stops reading, waits until every request already received has been answered
  (bounded by ``drain_timeout``), and only then lets the server shut down (which stops the worker pool).
"""

from __future__ import annotations

import logging
import signal
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

__all__ = ["InFlight", "relay_until_drained", "serve_stdio"]

logger = logging.getLogger(__name__)


class InFlight:
    """The ids of requests received and not yet answered."""

    def __init__(self) -> None:
        self._ids: set[types.RequestId] = set()
        self._changed = anyio.Event()

    def add(self, request_id: types.RequestId) -> None:
        self._ids.add(request_id)

    def discard(self, request_id: types.RequestId | None) -> None:
        if request_id is not None and request_id in self._ids:
            self._ids.discard(request_id)
            self._changed.set()
            self._changed = anyio.Event()

    def __len__(self) -> int:
        return len(self._ids)

    async def wait_empty(self) -> None:
        while self._ids:
            await self._changed.wait()


def _parse_error(exc: Exception) -> SessionMessage:
    error = types.JSONRPCError(
        jsonrpc="2.0",
        id=None,
        error=types.ErrorData(
            code=types.PARSE_ERROR,
            message=f"Parse error: the line is not a JSON-RPC message ({exc.__class__.__name__})",
        ),
    )
    return SessionMessage(error)


async def relay_until_drained(
    source: Any,
    sink: Any,
    to_server: MemoryObjectSendStream[SessionMessage | Exception],
    from_server: MemoryObjectReceiveStream[SessionMessage],
    *,
    stop: anyio.Event,
    drain_timeout: float,
) -> None:
    """Relay messages between the transport (``source``/``sink``) and the server's streams.

    Returns once input has ended (or ``stop`` is set) and every request received has been answered, or
    ``drain_timeout`` seconds after input ended, whichever comes first; the server's input is then closed.
    """
    in_flight = InFlight()

    async def outbound() -> None:
        async with from_server, sink:  # closing the sink lets the transport's writer finish
            async for item in from_server:
                message = item.message
                if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                    in_flight.discard(message.id)
                await sink.send(item)

    async def inbound(scope: anyio.CancelScope) -> None:
        with scope:
            async for item in source:
                if isinstance(item, Exception):
                    await sink.send(_parse_error(item))
                    continue
                if isinstance(item.message, types.JSONRPCRequest):
                    in_flight.add(item.message.id)
                await to_server.send(item)

    async with anyio.create_task_group() as group:
        group.start_soon(outbound)  # ends when the server closes its output, after its input closed
        reading = anyio.CancelScope()
        watcher = anyio.CancelScope()

        async def stop_reading_on_request() -> None:
            with watcher:
                await stop.wait()
                reading.cancel()

        group.start_soon(stop_reading_on_request)
        await inbound(reading)
        watcher.cancel()
        if len(in_flight):
            logger.info("input closed; answering %d request(s) still in progress before exit", len(in_flight))
        with anyio.move_on_after(drain_timeout) as drained:
            await in_flight.wait_empty()
        if drained.cancelled_caught:
            logger.warning("gave up waiting for %d request(s) after %.0f s", len(in_flight), drain_timeout)
        await to_server.aclose()


async def serve_stdio(server: Server[Any], *, drain_timeout: float) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes or SIGTERM arrives, answering what was received."""
    stop = anyio.Event()
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def watch_signals() -> None:
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            async for signum in signals:
                logger.info("received signal %d; finishing requests in progress", signum)
                stop.set()
                return

    async with stdio_server() as (source, sink), anyio.create_task_group() as group:
        group.start_soon(watch_signals)

        async def run_server() -> None:
            async with server_input, server_output:
                await server.run(server_input, server_output, server.create_initialization_options())

        group.start_soon(run_server)
        await relay_until_drained(source, sink, to_server, from_server, stop=stop, drain_timeout=drain_timeout)
        # The server saw the end of its input and has returned (its lifespan stopped the workers).
        group.cancel_scope.cancel()
