"""Serving over stdio, with the shutdown the protocol's users expect.

The SDK's stdio transport stops as soon as stdin reaches end-of-file, dropping requests still being worked on,
and it ignores lines that are not JSON. Between the transport and the server this module puts a thin relay that

- answers a line that is not JSON with a parse error (``-32700``, ``id: null``) and JSON that is not a
  JSON-RPC message with an invalid-request error (``-32600``), as JSON-RPC 2.0 requires;
- answers itself what the SDK would mishandle: a request whose id is not a string or an integer, a second
  request under the id of one still in progress, a second ``initialize`` (``-32600`` each);
- bounds what requests in progress hold by the same memory budget as HTTP (:mod:`sandbox_server.backlog`): a
  request whose estimated size does not fit is answered at once that the server is busy (``-32000``), and a line
  longer than the largest message the server accepts is answered ``-32600`` without being held in memory;
- on end-of-input or SIGTERM stops reading, waits until every request already received has been answered
  (bounded by ``drain_timeout``), and only then lets the server shut down (which stops the worker pool); a
  further SIGTERM during that drain is logged and changes nothing.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import re
import signal
from dataclasses import dataclass
from typing import Any, cast

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from sandbox_server.backlog import Backlog, json_values, request_cost

__all__ = ["InFlight", "InputLines", "LineRecord", "OutputLines", "relay_until_drained", "serve_stdio"]

STDIN_FILENO = 0
STDOUT_FILENO = 1
STDERR_FILENO = 2

SERVER_BUSY = -32000
"""The JSON-RPC error code of a request refused for lack of room (HTTP answers 503 with the same code)."""

logger = logging.getLogger(__name__)


class InFlight:
    """The requests received and not yet answered (by id, with their method), and whether the handshake is done."""

    def __init__(self, backlog: Backlog | None = None) -> None:
        self._methods: dict[types.RequestId, str] = {}
        self._costs: dict[types.RequestId, int] = {}
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


@dataclass(frozen=True, slots=True)
class LineRecord:
    """What :class:`InputLines` learnt of one line it handed on: its size, its estimated cost in memory once
    parsed (see :mod:`sandbox_server.backlog`), and whether it was too long to be read at all."""

    size: int
    cost: int
    oversized: bool = False


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
            return _error(message.id, SERVER_BUSY, f"Server busy: {backlog.refusal(cost)}; retry in a moment")
    in_flight.add(message.id, message.method, cost)
    return None


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
) -> None:
    """Relay messages between the transport (``source``/``sink``) and the server's streams.

    Returns once input has ended (or ``stop`` is set) and every request received has been answered, or
    ``drain_timeout`` seconds after input ended, whichever comes first; the server's input is then closed. With
    ``lines`` (the transport's input) and a ``backlog``, what requests in progress hold is bounded.
    """
    in_flight = InFlight(backlog)

    async def outbound() -> None:
        async with from_server, sink:  # closing the sink lets the transport's writer finish
            async for item in from_server:
                message = item.message
                if isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
                    in_flight.answered(message)
                await sink.send(item)

    async def inbound(scope: anyio.CancelScope) -> None:
        with scope:
            async for item in source:
                record = lines.take_record() if lines is not None else None
                if record is not None and record.oversized:
                    message = None if isinstance(item, Exception) else item.message
                    await sink.send(_oversized(message, record, lines.max_line_bytes if lines is not None else 0))
                    continue
                answer = _rejection(item) if isinstance(item, Exception) else _screen(item.message, in_flight, record)
                if answer is not None:
                    await sink.send(answer)
                    continue
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


class InputLines:
    """The lines of a file descriptor (stdin), for the SDK's transport to read, which :meth:`close` ends at once.

    The SDK reads stdin in a worker thread that no cancellation interrupts, so after SIGTERM the process could
    exit only once the client closed stdin. Here the event loop waits until the descriptor is readable (a
    pipe, socket or terminal), which ``close()`` can cancel; input the loop cannot watch (a regular file, or
    ``/dev/null``) is read directly, since reading it never waits for anyone.
    """

    _CHUNK = 1 << 18

    def __init__(self, fd: int, max_line_bytes: int | None = None, max_line_values: int | None = None) -> None:
        self._fd = fd
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no newline
        self._eof = False
        self._closed = False
        self._watchable = True
        self._waiting: anyio.CancelScope | None = None
        self.max_line_bytes = max_line_bytes
        self.max_line_values = max_line_values
        # A record for each line handed on, in order; the transport turns each line into one message.
        self._records: collections.deque[LineRecord] = collections.deque()
        # While a line too long to keep is skipped: its start (where its id is), and its size so far.
        self._skipped_head: bytes | None = None
        self._skipped = 0

    def take_record(self) -> LineRecord | None:
        """The record of the oldest line handed on and not yet accounted for."""
        return self._records.popleft() if self._records else None

    def close(self) -> None:
        """Report the end of input to the reader, now if it is waiting for a line, else at its next line."""
        self._closed = True
        if self._waiting is not None:
            self._waiting.cancel()

    def __aiter__(self) -> InputLines:
        return self

    async def __anext__(self) -> str:
        while not self._closed:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                if self._skipped_head is not None:
                    return self._end_skipping(end)
                line = self._buffer[:end]
                del self._buffer[: end + 1]
                self._scanned = 0
                if self.max_line_values is not None and json_values(line) > self.max_line_values:
                    # Parsing it (which the transport does on the event loop) would take too long: refused unread.
                    return self._stand_in(bytes(line[:_ID_SCAN_BYTES]), len(line))
                self._records.append(LineRecord(len(line), request_cost(line)))
                return line.decode("utf-8", "replace")
            if self.max_line_bytes is not None and len(self._buffer) > self.max_line_bytes:
                self._skip_buffer()
            self._scanned = len(self._buffer)
            if self._eof:
                if self._skipped_head is not None:
                    return self._end_skipping(len(self._buffer))
                break
            chunk = await self._read()
            if chunk is None:
                break
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True
                if self._buffer:  # a last line without a newline
                    self._buffer += b"\n"
        raise StopAsyncIteration

    def _skip_buffer(self) -> None:
        """Let go of a line that is already longer than any message accepted, keeping only its start."""
        if self._skipped_head is None:
            self._skipped_head = bytes(self._buffer[:_ID_SCAN_BYTES])
        self._skipped += len(self._buffer)
        self._buffer.clear()

    def _end_skipping(self, end: int) -> str:
        """The stand-in for a skipped line that ends at ``end`` of the buffer: a message with only its id."""
        size = self._skipped + end
        head = self._skipped_head or b""
        del self._buffer[: end + 1]
        self._scanned = 0
        self._skipped_head = None
        self._skipped = 0
        return self._stand_in(head, size)

    def _stand_in(self, head: bytes, size: int) -> str:
        """A message with only the id of a line refused unread (its start is ``head``), recorded as oversized."""
        self._records.append(LineRecord(size, 0, oversized=True))
        request_id = _leading_id(head)
        if request_id is None:
            return '{"jsonrpc": "2.0", "method": "notifications/oversized"}'
        return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "oversized"})

    async def _read(self) -> bytes | None:
        """The next bytes (empty at end of input), or None once closed."""
        while True:
            if self._watchable:
                with anyio.CancelScope() as self._waiting:
                    try:
                        await anyio.wait_readable(self._fd)
                    except PermissionError:  # epoll refuses regular files and /dev/null
                        self._watchable = False
                self._waiting = None
                if self._closed:
                    return None
            try:
                return os.read(self._fd, self._CHUNK)
            except BlockingIOError:  # readiness was spurious, or a non-blocking descriptor the loop cannot watch
                if not self._watchable:
                    await anyio.sleep(0.01)
            except OSError as exc:
                logger.warning("reading stdin failed (%s); treating it as the end of input", exc)
                return b""


_ID_SCAN_BYTES = 4096
"""How much of a line too long to read is kept to find its id."""
_ID_VALUE = re.compile(rb'\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")')


def _leading_id(head: bytes) -> types.RequestId | None:
    """The id of a JSON-RPC message from the start of its text, when it comes before ``params`` (as clients write
    it); None when it cannot be told, since answering under a wrong id would confuse the client."""
    at = head.find(b'"id"')
    params = head.find(b'"params"')
    if at < 0 or (0 <= params < at) or not head.lstrip().startswith(b"{"):
        return None
    match = _ID_VALUE.match(head, at + 4)
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


class OutputLines:
    """Protocol output written from the event loop, for the SDK's transport to write through.

    The SDK writes each message with a write and a flush that each hop to a worker thread; writing from the
    event loop saves both hops on every message. While serving, the protocol keeps a private duplicate of
    stdout and fd 1 points at stderr, so that anything else printing to stdout (a library, a child process)
    cannot corrupt the stream; :meth:`close` restores fd 1.
    """

    def __init__(self) -> None:
        self._fd = os.dup(STDOUT_FILENO)
        os.set_inheritable(self._fd, False)
        os.dup2(STDERR_FILENO, STDOUT_FILENO)
        self._was_blocking = os.get_blocking(self._fd)
        self._watchable = True
        try:
            os.set_blocking(self._fd, False)
        except OSError:
            self._watchable = False

    async def write(self, text: str) -> int:
        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                written = os.write(self._fd, data)
            except BlockingIOError:
                if self._watchable:
                    try:
                        await anyio.wait_writable(self._fd)
                        continue
                    except PermissionError:  # epoll refuses regular files and /dev/null
                        self._watchable = False
                os.set_blocking(self._fd, True)
                continue
            data = data[written:]
        return len(text)

    async def flush(self) -> None:
        return None

    def close(self) -> None:
        """Give fd 1 back its original target."""
        os.set_blocking(self._fd, self._was_blocking)
        os.dup2(self._fd, STDOUT_FILENO)
        os.close(self._fd)


async def serve_stdio(
    server: Server[Any],
    *,
    drain_timeout: float,
    backlog: Backlog | None = None,
    max_line_bytes: int | None = None,
    max_line_values: int | None = None,
) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes or SIGTERM arrives, answering what was received.

    With a ``backlog``, requests whose estimated memory does not fit are refused; lines longer than
    ``max_line_bytes`` are refused without being kept.
    """
    lines = InputLines(STDIN_FILENO, max_line_bytes, max_line_values)
    output = OutputLines()
    # The transport only iterates over its stdin and calls write and flush on its stdout.
    stdin = cast("anyio.AsyncFile[str]", lines)
    stdout = cast("anyio.AsyncFile[str]", output)
    try:
        await _serve_streams(server, stdin, stdout, lines, drain_timeout, backlog)
    finally:
        output.close()


async def _serve_streams(
    server: Server[Any],
    stdin: anyio.AsyncFile[str],
    stdout: anyio.AsyncFile[str],
    lines: InputLines,
    drain_timeout: float,
    backlog: Backlog | None = None,
) -> None:
    stop = anyio.Event()
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def watch_signals() -> None:
        # The receiver stays open for the whole drain: a second SIGTERM must not fall back to the default action,
        # which would end the process with requests still unanswered (SIGKILL remains the way to stop at once).
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            async for signum in signals:
                if stop.is_set():
                    logger.warning("received signal %d again; still draining (SIGKILL stops at once)", signum)
                    continue
                logger.info("received signal %d; finishing requests in progress", signum)
                stop.set()

    async with stdio_server(stdin=stdin, stdout=stdout) as (source, sink), anyio.create_task_group() as group:
        group.start_soon(watch_signals)

        async def run_server() -> None:
            async with server_input, server_output:
                await server.run(server_input, server_output, server.create_initialization_options())

        group.start_soon(run_server)
        await relay_until_drained(
            source, sink, to_server, from_server, stop=stop, drain_timeout=drain_timeout, lines=lines, backlog=backlog
        )
        # The server saw the end of its input and has returned (its lifespan stopped the workers). Lines that
        # came after a SIGTERM are dropped; the transport's reader then ends with the input.
        lines.close()
        async for _ in source:
            pass
        group.cancel_scope.cancel()
