"""What an HTTP request to ``/mcp`` must pass before the MCP transport sees it.

In order, each answered at once and before the body is read unless said otherwise:

1. the bearer token, when one is configured (``401``); the scheme name is matched case-insensitively (RFC 9110
   section 11.1) and the token is compared in constant time;
2. the method: without sessions there is no stream to offer on ``GET`` and nothing to end with ``DELETE``, so both
   are ``405`` with ``Allow: POST`` (the answer the Streamable HTTP specification gives a server that offers no
   stream), instead of an event stream that stays open for nothing;
3. an ``MCP-Protocol-Version`` header naming a revision this server does not speak (``400`` naming the header and
   the revisions it does speak);
4. room: the memory the request will hold, estimated from its ``Content-Length`` before the body is read and from
   the body once read (:mod:`sandbox_server.backlog`), must fit the budget left by the requests in progress
   (running, or waiting for a worker); otherwise ``503`` at once, whose ``Retry-After`` (and text) says when room is
   likely (:meth:`~sandbox_server.backlog.Backlog.retry_after`). Small calls are never
   refused while the budget has room, however many are in progress;
5. the body, read here in full within ``body_timeout_s`` (``408`` otherwise), up to ``max_body_bytes`` (``413``, at
   once when ``Content-Length`` says so) and ``max_body_values`` JSON values (``413``: parsing it, which the
   transport does on the event loop, then takes a bounded time), then handed on unchanged, but for lone surrogate
   escapes (``"\\ud800"``, which ``JSON.stringify`` writes and the SDK's parser refuses), marked for
   :class:`~.surrogate_marks.RestoredSurrogates` to put back.

Requests that accept ``text/event-stream`` go to the transport that answers with a stream (which carries the
request's progress and log notifications before its result); without sessions, a client that accepts only
``application/json`` still gets plain JSON from a second transport, and the answer to an ``initialize`` carries a
fresh random ``Mcp-Session-Id`` under which nothing is kept (see :mod:`.cancellation`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import anyio
from mcp.server.streamable_http import check_accept_headers
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sandbox_server.backlog import Backlog, json_values, request_cost
from sandbox_server.transport.hints import EarlyWord, tell
from sandbox_server.transport.http.connections import ConnectionLimits, LogThrottle
from sandbox_server.transport.http.surrogate_marks import MARKED_SCOPE_KEY
from sandbox_server.transport.surrogates import protect

__all__ = ["Admission", "AdmissionLimits", "bearer_matches"]

logger = logging.getLogger(__name__)

DRAIN_REFUSED_BYTES = 16 * 1_048_576
"""A body refused for its announced length is read and dropped before the answer when it is at most this long."""
SPOKEN_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    """The limits and policy :class:`Admission` applies."""

    body_timeout_s: float
    max_body_bytes: int
    sessions: bool
    max_body_values: int = 2**62
    token: str | None = None
    max_streams: int = 64
    stream_max_s: float = 300.0


def bearer_matches(header: bytes | None, token: str) -> bool:
    """Whether an ``Authorization`` header value carries ``token`` with the Bearer scheme (any letter case).

    Both sides are hashed before the constant-time comparison, so neither the token's content nor its length
    shows in the time taken.
    """
    scheme, _, credentials = (header or b"").strip().partition(b" ")
    if scheme.lower() != b"bearer":
        return False
    given = hashlib.sha256(credentials.strip()).digest()
    expected = hashlib.sha256(token.encode()).digest()
    return hmac.compare_digest(given, expected)


async def _answer(
    send: Send, status: int, message: str, *, code: int = -32600, headers: dict[str, str] | None = None
) -> None:
    """A JSON-RPC error without an id, with an HTTP status, as the SDK's transport answers what it refuses."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}).encode()
    raw_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw_headers += [(key.lower().encode(), value.encode()) for key, value in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class Admission:
    """ASGI application in front of the MCP transports; see the module docstring for what it checks."""

    def __init__(
        self,
        streaming: ASGIApp,
        plain: ASGIApp | None,
        limits: AdmissionLimits,
        backlog: Backlog,
        connections: ConnectionLimits | None = None,
        on_run: EarlyWord | None = None,
    ) -> None:
        self._streaming = streaming
        self._on_run = on_run
        self._plain = plain
        self._limits = limits
        self.backlog = backlog
        self._connections = connections
        # Open GET streams, oldest first (dicts keep insertion order).
        self._streams: dict[anyio.CancelScope, None] = {}
        self.streams_ended = 0
        self._refusal_log = LogThrottle(logger, logging.WARNING)
        self._timeout_log = LogThrottle(logger, logging.INFO)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._streaming(scope, receive, send)
            return
        limits = self._limits
        headers = dict(scope.get("headers", []))
        if limits.token is not None and not bearer_matches(headers.get(b"authorization"), limits.token):
            await _answer(
                send,
                401,
                "Unauthorized: send the server's token as 'Authorization: Bearer <token>'",
                headers={"WWW-Authenticate": 'Bearer realm="sandbox-server"'},
            )
            return
        method = scope["method"]
        if method != "POST" and not limits.sessions:
            await _answer(
                send,
                405,
                f"Method Not Allowed: this server keeps no sessions, so {method} has no stream or session to serve; "
                "send each JSON-RPC message in a POST",
                headers={"Allow": "POST"},
            )
            return
        version = headers.get(MCP_PROTOCOL_VERSION_HEADER.lower().encode())
        if version is not None and version.decode("latin-1") not in SPOKEN_VERSIONS:
            await _answer(
                send,
                400,
                f"Bad Request: unsupported MCP-Protocol-Version header {version.decode('latin-1')[:64]!r}; "
                "this server speaks " + ", ".join(SPOKEN_VERSIONS),
            )
            return
        if method == "GET":
            await self._stream(scope, receive, send)
            return
        if method != "POST":
            await self._streaming(scope, receive, send)
            return
        announced = _content_length(scope)
        if announced is not None and announced > limits.max_body_bytes:
            if announced <= DRAIN_REFUSED_BYTES:
                # Read and dropped (never kept) before the answer: closing a connection with unread input makes the
                # kernel reset it, and the client would see a broken connection instead of the 413.
                await _discard_body(receive, limits.body_timeout_s)
            await _too_large(send, limits.max_body_bytes)
            return
        reserved = request_cost(b"") + (announced or 0)
        if not self.backlog.reserve(reserved):
            await self._refuse(send, reserved)
            return
        try:
            reserved = await self._admitted(scope, receive, send, reserved)
        finally:
            self.backlog.release(reserved)

    @property
    def in_progress(self) -> int:
        """POSTs being read, run or waiting for a worker."""
        return self.backlog.requests

    @property
    def refused(self) -> int:
        """POSTs refused for lack of room so far."""
        return self.backlog.refused

    async def _refuse(self, send: Send, cost: int) -> None:
        self._refusal_log(
            "refusing a request: %d requests in progress hold %d of %d bytes",
            self.backlog.requests,
            self.backlog.in_use,
            self.backlog.limit,
        )
        wait_s = self.backlog.retry_after(cost)
        await _answer(
            send,
            503,
            f"Service Unavailable: {self.backlog.refusal(cost)}; retry after {wait_s} s",
            code=-32000,
            headers={"Retry-After": str(wait_s)},
        )

    def close_streams(self) -> None:
        """End every open ``GET`` stream (sessions only), so that a drain does not wait for them."""
        for scope in list(self._streams):
            scope.cancel()

    @property
    def open_streams(self) -> int:
        """GET streams open now (sessions only)."""
        return len(self._streams)

    @property
    def max_streams(self) -> int:
        """GET streams that may be open at once: ``max_streams``, and never more than half of the connections the
        server keeps open (read when each stream opens, since the cap may be lowered to fit the descriptor limit
        after start-up), so that the other half stays for health checks and calls."""
        if self._connections is None:
            return self._limits.max_streams
        return min(self._limits.max_streams, self._connections.max_connections // 2)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A session's ``GET`` stream, which :meth:`close_streams` ends cleanly.

        Streams are bounded apart from requests: at most :attr:`max_streams` are open (a new one ends the oldest,
        whose client may open it again), so that they never take the connections that health checks and new clients
        need; none when the connection cap is below 2 (the ``GET`` is answered ``405``); and each ends after
        ``stream_max_s``, since the transport counts an open stream as a request in
        flight and a session whose stream stayed open would never reach its idle timeout.
        """
        limits = self._limits
        started = False
        cap = self.max_streams
        if cap < 1:
            await _answer(
                send,
                405,
                f"Method Not Allowed: with at most {self._connections.max_connections if self._connections else 0} "
                "connections this server keeps no GET stream open (it would take a connection that health checks and "
                "calls need); each request's notifications come in its own POST's answer",
                headers={"Allow": "POST, DELETE"},
            )
            return

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        while len(self._streams) >= cap:
            oldest = next(iter(self._streams))
            del self._streams[oldest]
            oldest.cancel()
            self.streams_ended += 1
        with anyio.CancelScope(deadline=anyio.current_time() + limits.stream_max_s) as cancel:
            self._streams[cancel] = None
            try:
                await self._streaming(scope, receive, watched)
            finally:
                self._streams.pop(cancel, None)
        if cancel.cancelled_caught and started:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _admitted(self, scope: Scope, receive: Receive, send: Send, reserved: int) -> int:
        """Read the body, grow the reservation to what the body holds, and hand the request on; returns the bytes
        reserved at the end, for the caller to release."""
        limits = self._limits
        chunks: list[bytes] = []
        size = 0
        disconnected = False
        with anyio.move_on_after(limits.body_timeout_s) as reading:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    disconnected = True
                    break
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limits.max_body_bytes:
                    await _too_large(send, limits.max_body_bytes)
                    return reserved
                if chunk:
                    chunks.append(chunk)
                if size + request_cost(b"") > reserved:
                    # A body longer than announced (or sent in chunks without a length): count it as it comes.
                    if not self.backlog.grow(reserved, size + request_cost(b"")):
                        await self._refuse(send, size)
                        return reserved
                    reserved = size + request_cost(b"")
                if not message.get("more_body", False):
                    break
        if disconnected:
            return reserved
        if reading.cancelled_caught:
            self._timeout_log("a request body took longer than %g s; answered 408", limits.body_timeout_s)
            await _answer(
                send,
                408,
                f"Request Timeout: the body did not arrive within {limits.body_timeout_s:g} s",
                headers={"Connection": "close"},
            )
            return reserved
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        del chunks
        values = json_values(body)
        if values > limits.max_body_values:
            await _answer(
                send,
                413,
                f"Payload Too Large: the body holds about {values} JSON values; at most {limits.max_body_values} are "
                "accepted in one message",
                headers={"Connection": "close"},
            )
            return reserved
        cost = request_cost(body)
        if not self.backlog.grow(reserved, cost):
            await self._refuse(send, cost)
            return reserved
        reserved = max(reserved, cost)
        tell(self._on_run, body)
        marked = protect(body)
        if marked is not None:  # lone surrogate escapes, which the SDK's parser refuses: see RestoredSurrogates
            body = marked
            scope = {**scope, MARKED_SCOPE_KEY: True}
        target = self._streaming
        if self._plain is not None and not check_accept_headers(Request(scope))[1]:
            target = self._plain
        if not limits.sessions and _opens_a_conversation(scope, body):
            send = _with_correlation_id(send)
        replayed = _replay(body, receive)
        del body  # from here only the transport holds the body
        await target(scope, replayed, send)
        return reserved


def _content_length(scope: Scope) -> int | None:
    """The body length a request announces, or None when it announces none (or an unreadable one)."""
    for key, value in scope.get("headers", []):
        if key == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return None
            return length if length >= 0 else None
    return None


async def _discard_body(receive: Receive, timeout_s: float) -> None:
    with anyio.move_on_after(timeout_s):
        while True:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return


async def _too_large(send: Send, limit: int) -> None:
    await _answer(
        send,
        413,
        f"Payload Too Large: a request body may have at most {limit} bytes",
        headers={"Connection": "close"},
    )


def _opens_a_conversation(scope: Scope, body: bytes) -> bool:
    """Whether this is an ``initialize`` request from a client that has no ``Mcp-Session-Id`` yet."""
    if any(key == b"mcp-session-id" for key, _ in scope.get("headers", [])) or b'"initialize"' not in body:
        return False
    try:
        message = json.loads(body)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("method") == "initialize"


def _with_correlation_id(send: Send) -> Send:
    """``send``, adding a fresh random ``Mcp-Session-Id`` to a successful answer.

    The stateless server keeps nothing under this id. Clients send it back with every request, which lets a
    ``notifications/cancelled`` be matched to the call it names from the same client (see
    :mod:`.cancellation`), and gives a load balancer a key for affinity if it wants one; any
    replica accepts any id.
    """

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] == 200:
            correlation = (b"mcp-session-id", secrets.token_hex(16).encode())
            message = {**message, "headers": [*message.get("headers", []), correlation]}
        await send(message)

    return sending


def _replay(body: bytes, receive: Receive) -> Callable[[], Awaitable[Message]]:
    """A ``receive`` that hands out ``body`` as the whole request body, then passes on what the server sends.

    The body is let go of once handed out, so that this closure does not keep a second reference to it for as long
    as the request runs.
    """
    pending: list[bytes] = [body]

    async def replayed() -> Message:
        if pending:
            return {"type": "http.request", "body": pending.pop(), "more_body": False}
        return await receive()

    return replayed
