"""The relay between the SDK's stdio transport and the server: what it answers itself, and the drain.

See :mod:`sandbox_server.transport.stdio` for what it answers and why.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from sandbox_server.backlog import Backlog
from sandbox_server.transport.stdio.lines import InputLines, LineRecord
from sandbox_server.transport.surrogates import replaced, restore

__all__ = ["SERVER_BUSY", "InFlight", "relay_until_drained"]

SERVER_BUSY = -32000
"""The JSON-RPC error code of a request refused for lack of room (HTTP answers 503 with the same code)."""

logger = logging.getLogger(__name__)


class InFlight:
    """The requests received and not yet answered (by id, with their method), and whether the handshake is done."""

    def __init__(self, backlog: Backlog | None = None) -> None:
        self._methods: dict[types.RequestId, str] = {}
        self._costs: dict[types.RequestId, int] = {}
        self.marked: set[types.RequestId] = set()
        """Requests whose line had lone surrogates: their answers may echo one, which JSON in UTF-8 cannot carry."""
        self._changed = anyio.Event()
        self.initialized = False
        self.backlog = backlog

    def add(self, request_id: types.RequestId, method: str, cost: int = 0) -> None:
        self._methods[request_id] = method
        if cost:
            self._costs[request_id] = cost

    def answered(self, message: types.JSONRPCResponse | types.JSONRPCError) -> None:
        """The server answered ``message.id``; a successful ``initialize`` completes the handshake."""
        if message.id is None or message.id not in self._methods:
            return
        self.marked.discard(message.id)
        self._release(message.id)
        if self._methods.pop(message.id) == "initialize" and isinstance(message, types.JSONRPCResponse):
            self.initialized = True
        self._notify()

    def cancelled(self, request_id: types.RequestId | None) -> None:
        """The client cancelled ``request_id``: the server will not answer it (the SDK matches "7" and 7)."""
        if request_id is None:
            return
        key = coerce_request_id(request_id)
        for known in [known for known in self._methods if coerce_request_id(known) == key]:
            self._release(known)
            self.marked.discard(known)
            del self._methods[known]
        self._notify()

    def _release(self, request_id: types.RequestId) -> None:
        cost = self._costs.pop(request_id, None)
        if cost is not None and self.backlog is not None:
            self.backlog.release(cost)

    def __contains__(self, request_id: types.RequestId) -> bool:
        return request_id in self._methods

    def __len__(self) -> int:
        return len(self._methods)

    def initializing(self) -> bool:
        return "initialize" in self._methods.values()

    async def wait_empty(self) -> None:
        while self._methods:
            await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()


def _screen(
    message: types.JSONRPCMessage, in_flight: InFlight, record: LineRecord | None = None
) -> SessionMessage | None:
    """The relay's own answer to a message the server must not see, or None to pass it on.

    The SDK would take a request with an unusable id for a notification and never answer it, run two requests
    under one id so that their answers cannot be told apart, and answer every ``initialize`` again. It
    also never answers a cancelled request, so that one stops counting as in flight.
    """
    if isinstance(message, types.JSONRPCNotification):
        if not message.method.startswith("notifications/"):
            return _error(
                None,
                types.INVALID_REQUEST,
                f"Invalid Request: {message.method!r} is a request and needs an id that is a string or an integer",
            )
        if message.method == "notifications/cancelled":
            in_flight.cancelled(as_request_id((message.params or {}).get("requestId")))
        return None
    if not isinstance(message, types.JSONRPCRequest):
        return None
    if message.id in in_flight:
        return _error(
            message.id,
            types.INVALID_REQUEST,
            f"Invalid Request: id {message.id!r} belongs to a request still in progress; every request needs a new id",
        )
    if message.method == "initialize" and (in_flight.initialized or in_flight.initializing()):
        return _error(message.id, types.INVALID_REQUEST, "Invalid Request: the session is already initialized")
    cost = 0
    backlog = in_flight.backlog
    if record is not None and backlog is not None:
        cost = record.cost
        if not backlog.reserve(cost):
            wait_s = backlog.retry_after(cost)
            return _error(message.id, SERVER_BUSY, f"Server busy: {backlog.refusal(cost)}; retry after {wait_s} s")
    in_flight.add(message.id, message.method, cost)
    return None


def _restored(item: SessionMessage) -> SessionMessage:
    """``item`` with the lone surrogates its line had (marked for the parser) back in its params."""
    message = item.message
    if not isinstance(message, types.JSONRPCRequest | types.JSONRPCNotification) or message.params is None:
        return item
    return SessionMessage(message.model_copy(update={"params": restore(message.params)}), metadata=item.metadata)


def _without_surrogates(message: types.JSONRPCResponse | types.JSONRPCError) -> types.JSONRPCMessage:
    """An answer with U+FFFD for each lone surrogate it echoes, which JSON in UTF-8 cannot carry."""
    if isinstance(message, types.JSONRPCResponse):
        return message.model_copy(update={"result": replaced(message.result)})
    error = message.error
    changes: dict[str, Any] = {"message": replaced(error.message)}
    if error.data is not None:
        changes["data"] = replaced(error.data)
    clean = error.model_copy(update=changes)
    return message.model_copy(update={"error": clean})


def _error(request_id: types.RequestId | None, code: int, message: str) -> SessionMessage:
    return SessionMessage(
        types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
    )


def _oversized(message: types.JSONRPCMessage | None, record: LineRecord, limit: int | None) -> SessionMessage:
    request_id = message.id if isinstance(message, types.JSONRPCRequest) else None
    return _error(
        request_id,
        types.INVALID_REQUEST,
        f"Invalid Request: the message ({record.size} bytes) is larger than this server accepts: at most {limit} "
        "bytes, and as many JSON values as max_code_bytes and max_input_bytes allow, in one message",
    )


def _rejection(exc: Exception) -> SessionMessage:
    """The answer to a line the transport could not read as a JSON-RPC message.

    Not JSON at all is a parse error; JSON that is not a valid message is an invalid request, answered with
    the line's id when it has a usable one (JSON-RPC 2.0, section 5).
    """
    if not isinstance(exc, ValidationError) or any(error["type"] == "json_invalid" for error in exc.errors()):
        return _error(None, types.PARSE_ERROR, "Parse error: the line is not valid JSON")
    request_id = None
    for error in exc.errors():
        if isinstance(error["input"], dict):
            request_id = as_request_id(error["input"].get("id"))
            break
    return _error(
        request_id,
        types.INVALID_REQUEST,
        "Invalid Request: expected a JSON-RPC 2.0 message object "
        '({"jsonrpc": "2.0", "id": string or integer, "method": string, "params": object})',
    )


async def relay_until_drained(
    source: Any,
    sink: Any,
    to_server: MemoryObjectSendStream[SessionMessage | Exception],
    from_server: MemoryObjectReceiveStream[SessionMessage],
    *,
    stop: anyio.Event,
    drain_timeout: float,
    lines: InputLines | None = None,
    backlog: Backlog | None = None,
    on_answer: Callable[[types.RequestId], None] | None = None,
) -> None:
    """Relay messages between the transport (``source``/``sink``) and the server's streams.

    Returns once input has ended (or ``stop`` is set) and every request received has been answered, or
    ``drain_timeout`` seconds after input ended, whichever comes first; the server's input is then closed. With
    ``lines`` (the transport's input) and a ``backlog``, what requests in progress hold is bounded. ``on_answer``
    hears the id of each request answered, by the server or here, as the answer goes out.
    """
    in_flight = InFlight(backlog)

    async def send(item: SessionMessage) -> None:
        message = item.message
        answered = message.id if isinstance(message, types.JSONRPCResponse | types.JSONRPCError) else None
        if on_answer is not None and answered is not None:
            try:
                on_answer(answered)
            except Exception:  # the answer goes out whatever the hook did
                logger.exception("the server's look at an answer failed; the answer goes out")
        await sink.send(item)

    async def outbound() -> None:
        async with from_server, sink:  # closing the sink lets the transport's writer finish
            async for item in from_server:
                message = item.message
                if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                    if message.id in in_flight.marked:
                        item = SessionMessage(_without_surrogates(message), metadata=item.metadata)
                    in_flight.answered(message)
                await send(item)

    async def inbound(scope: anyio.CancelScope) -> None:
        with scope:
            async for item in source:
                record = lines.take_record() if lines is not None else None
                if record is not None and record.oversized:
                    message = None if isinstance(item, Exception) else item.message
                    await send(_oversized(message, record, lines.max_line_bytes if lines is not None else 0))
                    continue
                if record is not None and record.marked and not isinstance(item, Exception):
                    item = _restored(item)
                answer = _rejection(item) if isinstance(item, Exception) else _screen(item.message, in_flight, record)
                if answer is not None:
                    await send(answer)
                    continue
                if record is not None and record.marked and isinstance(item.message, types.JSONRPCRequest):
                    in_flight.marked.add(item.message.id)
                # Shielded: a request counted as in flight must reach the server even when SIGTERM stops the
                # reading halfway through the hand-over, or the drain would wait for an answer that never comes.
                with anyio.CancelScope(shield=True):
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
