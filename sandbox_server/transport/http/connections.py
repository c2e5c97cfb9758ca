"""Connection limits of the HTTP server: how many connections stay open, and how long a request's head may take.

uvicorn's h11 protocol (uvicorn 0.54) arms no timer until a connection has finished a response, so a client that
opens connections and sends half a request (``POST /mcp HTTP/1.1``, ``Host:``, then nothing) holds each one
forever, and its ``limit_concurrency`` answers 503 only after a request's headers have arrived, when the
descriptor is already spent. Enough of them exhaust the process's descriptors: no health check, no replacement
worker. :func:`guarded_protocol` builds an h11 protocol class that

- closes a connection whose request head (request line and headers) is not complete within the header timeout,
  counted from when the connection opens or, on a kept-alive connection, from the first byte of the next request
  (``408 Request Timeout``);
- keeps at most ``max_connections`` open: a connection over the cap closes the oldest open connection that has no
  request in progress (half-sent heads and idle kept-alive connections), and when every connection is serving a
  request it is answered ``503`` with ``Retry-After`` itself and closed.

A request whose head has arrived is never closed here: its body, its processing and its response are bounded by
the application (see :mod:`.admission`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from sandbox_server import platform

__all__ = ["ConnectionLimits", "LogThrottle", "guarded_protocol", "raise_descriptor_limit"]

logger = logging.getLogger(__name__)

RETRY_AFTER_S = 1
"""What ``Retry-After`` tells a client refused for lack of room."""
LINGER_S = 1.0
"""How long a refused connection is kept half-closed so that the client reads the 503 before the close."""
MAX_LINGERING = 64
"""Refused connections kept half-closed at once; further ones are closed at once."""
DESCRIPTORS_PER_WORKER = 8
DESCRIPTOR_RESERVE = 64
"""Descriptors the server needs besides connections (listening socket, logs, event loop, imports)."""


class LogThrottle:
    """Logs an event that an attacker can repeat at will at most once a second, saying how many were left out."""

    def __init__(self, log: logging.Logger, level: int, interval_s: float = 1.0) -> None:
        self._log = log
        self._level = level
        self._interval_s = interval_s
        self._last = -interval_s
        self._skipped = 0

    def __call__(self, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._last < self._interval_s:
            self._skipped += 1
            return
        self._last = now
        if self._skipped:
            message += f" ({self._skipped} more since the last such message)"
            self._skipped = 0
        self._log.log(self._level, message, *args)


def _raw_response(status: str, message: str, extra: str = "") -> bytes:
    body = ('{"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "' + message + '"}}').encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        f"connection: close\r\n{extra}\r\n"
    )
    return head.encode("ascii") + body


BUSY = _raw_response(
    "503 Service Unavailable",
    "every connection this server accepts is serving a request; retry shortly",
    f"retry-after: {RETRY_AFTER_S}\r\n",
)
TOO_SLOW = _raw_response("408 Request Timeout", "the request head did not arrive in time")


@dataclass(slots=True)
class ConnectionLimits:
    """The limits one server applies to its connections, and the connections it has open."""

    max_connections: int
    header_timeout_s: float
    # Open connections, least recently active first (dicts keep insertion order).
    _open: dict[GuardedH11Protocol, None] = field(default_factory=dict)
    _lingering: int = 0
    draining: bool = False
    """Set when the server starts its drain: from then on a connection ends with its response."""
    _refusal_log: LogThrottle = field(default_factory=lambda: LogThrottle(logger, logging.WARNING))
    _timeout_log: LogThrottle = field(default_factory=lambda: LogThrottle(logger, logging.INFO))
    evicted: int = 0
    refused: int = 0
    timed_out: int = 0

    def stats(self) -> dict[str, int]:
        """Counts for the health endpoint."""
        return {
            "open": len(self._open),
            "max": self.max_connections,
            "evicted": self.evicted,
            "refused": self.refused,
            "headerTimeouts": self.timed_out,
        }

    def _admit(self, connection: GuardedH11Protocol) -> bool:
        """Make room for ``connection``; False when every open connection is serving a request."""
        if len(self._open) >= self.max_connections:
            victim = next((known for known in self._open if not known.in_request()), None)
            if victim is None:
                return False
            self.evicted += 1
            victim.drop()
        self._open[connection] = None
        return True

    def _touch(self, connection: GuardedH11Protocol) -> None:
        if connection in self._open:
            del self._open[connection]
            self._open[connection] = None

    def _forget(self, connection: GuardedH11Protocol) -> None:
        self._open.pop(connection, None)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request-head deadline and a place among at most ``max_connections``."""

    limits: ClassVar[ConnectionLimits]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._refused = False

    def in_request(self) -> bool:
        """Whether a request's head has arrived and its response is not complete."""
        return self.cycle is not None and not self.cycle.response_complete

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.limits.draining:
            # Accepted as the listening socket closed: uvicorn's drain would not know to end it.
            self.transport.close()
            return
        if not self.limits._admit(self):
            self._refuse()
            return
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # read and dropped, so that closing does not reset the connection before the 503 is read
        if self._head_timer is None and self.conn.their_state is h11.IDLE:
            self._arm_head_timer()  # the next request on a kept-alive connection has begun
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.limits._touch(self)
        if self.limits.draining and not self.transport.is_closing():
            self.drop()  # no new request on a kept-alive connection once the drain has begun

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        self.limits._forget(self)
        if self._refused:
            self.limits._lingering -= 1
            self._refused = False
        super().connection_lost(exc)

    def drop(self) -> None:
        """Close this connection, which has no request in progress, to make room for a newer one."""
        self._cancel_head_timer()
        self.limits._forget(self)
        if not self.transport.is_closing():
            self.transport.close()

    def _refuse(self) -> None:
        limits = self.limits
        limits.refused += 1
        limits._refusal_log("refusing a connection: all %d open connections serve requests", limits.max_connections)
        self.transport.write(BUSY)
        if limits._lingering >= MAX_LINGERING or not self.transport.can_write_eof():
            self.transport.close()
            return
        # Half-close and read until the client closes (or briefly): closing a socket with unread input makes the
        # kernel send a reset, and the client could lose the 503 it has not read yet.
        limits._lingering += 1
        self._refused = True
        self.transport.write_eof()
        self.loop.call_later(LINGER_S, self.transport.close)

    def _arm_head_timer(self) -> None:
        self._head_timer = self.loop.call_later(self.limits.header_timeout_s, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        self.limits.timed_out += 1
        self.limits._timeout_log("closed a connection whose request head took over %g s", self.limits.header_timeout_s)
        self.limits._forget(self)
        self.transport.write(TOO_SLOW)
        self.transport.close()


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedH11Protocol]:
    """An h11 protocol class (for ``uvicorn.Config(http=...)``) that applies ``limits`` to every connection."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits})


def raise_descriptor_limit(max_connections: int, workers: int) -> int:
    """Make room for ``max_connections`` within the process's descriptor limit; returns the connections that fit.

    Raises the soft ``RLIMIT_NOFILE`` towards the hard one when needed; if even that is too small, the connection
    cap is lowered (with a warning) so that connections can never take the descriptors the server needs.
    """
    needed = max_connections + DESCRIPTOR_RESERVE + DESCRIPTORS_PER_WORKER * workers
    soft = platform.raise_open_file_limit(needed)
    if soft >= needed:
        return max_connections
    fitting = max(1, soft - DESCRIPTOR_RESERVE - DESCRIPTORS_PER_WORKER * workers)
    logger.warning(
        "the descriptor limit (%d) leaves room for %d connections, not %d; serving at most %d",
        soft,
        fitting,
        max_connections,
        fitting,
    )
    return fitting
