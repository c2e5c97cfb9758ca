"""The two ends of the stdio transport: lines read from stdin (:class:`InputLines`) and written to stdout
(:class:`OutputLines`), both from the event loop.

Lines are handed to the SDK's stdio transport, which parses each into one message. What the relay needs to know of
a line it cannot learn from the parsed message (its size, for the memory budget, and whether it was too large to
read at all) is kept here, one :class:`LineRecord` per line, in order.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import re
from dataclasses import dataclass

import anyio
import mcp_types as types

from sandbox_server.backlog import json_values, request_cost
from sandbox_server.transport.hints import EarlyWord, tell
from sandbox_server.transport.surrogates import protect

__all__ = ["STDERR_FILENO", "STDIN_FILENO", "STDOUT_FILENO", "InputLines", "LineRecord", "OutputLines"]

STDIN_FILENO = 0
STDOUT_FILENO = 1
STDERR_FILENO = 2

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LineRecord:
    """What :class:`InputLines` learnt of one line it handed on: its size, its estimated cost in memory once
    parsed (see :mod:`sandbox_server.backlog`), whether it was too long to be read at all, and whether its lone
    surrogate escapes were marked for the parser (see :mod:`sandbox_server.transport.surrogates`)."""

    size: int
    cost: int
    oversized: bool = False
    marked: bool = False


class InputLines:
    """The lines of a file descriptor (stdin), for the SDK's transport to read, which :meth:`close` ends at once.

    The SDK reads stdin in a worker thread that no cancellation interrupts, so after SIGTERM the process could
    exit only once the client closed stdin. Here the event loop waits until the descriptor is readable (a
    pipe, socket or terminal), which ``close()`` can cancel; input the loop cannot watch (a regular file, or
    ``/dev/null``) is read directly, since reading it never waits for anyone.
    """

    _CHUNK = 1 << 18

    def __init__(
        self,
        fd: int,
        max_line_bytes: int | None = None,
        max_line_values: int | None = None,
        on_run: EarlyWord | None = None,
    ) -> None:
        self._fd = fd
        self._on_run = on_run
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
                tell(self._on_run, line)
                marked = protect(line)
                self._records.append(LineRecord(len(line), request_cost(line), marked=marked is not None))
                return (line if marked is None else marked).decode("utf-8", "replace")
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
