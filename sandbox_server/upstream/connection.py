"""One live client connection to an upstream MCP server, restarted on demand after it fails.

The SDK's transports (``stdio_client``, ``streamable_http_client``) and ``ClientSession`` are anyio context
managers that own task groups, so they must be entered and left by one task. Each :class:`Upstream` therefore has
an owner task (started by :class:`~sandbox_server.upstream.group.Upstreams`) that holds them for the connection's
life; calls from any other task go through the ``ClientSession``, whose dispatcher correlates the replies.

Failures are mapped to one error, :class:`~.failures.UpstreamCallError` (its reasons are listed there). A tool
result with ``isError: true`` is an answer, not a failure: it is returned as it is.

Restarts are lazy: a failed connection (or first start) is re-made by the next call, at once the first time, then
no sooner than 1 s, 2 s, 4 s ... (at most 60 s) after the previous attempt, until a call gets an answer again; a call
during the wait fails at once, saying when the next attempt may be. Each handshake (``initialize``, ``tools/list``)
is bounded by the connect timeout: a server that never answers costs the call that retries it that long (plus the
stopping of the previous attempt), never the call's own limit. Log lines escape every name and text (``visible``).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio
import anyio.abc
import mcp_types as types
import pydantic_core
from anyio.streams.memory import MemoryObjectSendStream
from mcp import ClientSession
from mcp.client._transport import ReadStream, WriteStream
from mcp.client.session import IncomingMessage
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.escapes import visible
from sandbox_server.upstream.failures import CallFailure, UpstreamCallError
from sandbox_server.upstream.transport import client_info, describe, list_tools, open_transport
from sandbox_server.upstream.transports import streamable_http

__all__ = [
    "BACKOFF_FIRST_S",
    "BACKOFF_MAX_S",
    "DEFAULT_CONNECT_TIMEOUT_S",
    "STOP_GRACE_S",
    "CallFailure",
    "Upstream",
    "UpstreamCallError",
    "UpstreamState",
]

SLOW_HINT = "; a first start that downloads the server (npx, uvx) may need more: upstream_connect_timeout_s"
logger = logging.getLogger("sandbox_server.upstream")

UpstreamState = Literal["starting", "ready", "unavailable"]

DEFAULT_CONNECT_TIMEOUT_S = 10.0
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 60.0
STOP_GRACE_S = 5.0
"""How long stopping a failed attempt may take before the next can begin: the SDK gives a stdio server 2 s after
closing its input and 2 s after SIGTERM; beyond that only a bug holds the owner."""
_SDK_CLOSED_MESSAGES = (
    "Connection closed",
    "SSE stream ended without a response",
    "SSE stream ended and reconnection attempts were exhausted",
)
"""The texts the SDK itself gives CONNECTION_CLOSED (-32000); a server may send -32000 for errors of its own."""
_SDK_STREAM_FAILED = "SSE stream failed"
"""The SDK's text when one response stream could not be read (too big, malformed); the session itself is fine."""


@dataclass(slots=True, eq=False)
class _Live:
    """One connection attempt: the session (once entered) and the signals of its life."""

    lost: anyio.Event = field(default_factory=anyio.Event)
    relist: anyio.Event = field(default_factory=anyio.Event)
    session: ClientSession | None = None
    garbled: bool = False
    """The server wrote something that is not JSON-RPC; said in the reason if the handshake then fails."""


class Upstream:
    """The connection to one configured upstream server, as the rest of the package sees it.

    ``tools`` is the server's whole tool list (every page) from the last listing, kept while the server is
    unavailable; the caller applies ``config.exposes``. ``reason`` says why the server is unavailable, without
    secrets.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        on_tools_changed: Callable[[str], None] | None = None,
        backoff_first_s: float = BACKOFF_FIRST_S,
        backoff_max_s: float = BACKOFF_MAX_S,
    ) -> None:
        self.config = config
        self.name = config.name
        self.state: UpstreamState = "starting"
        self.reason: str | None = None
        self.tools: list[types.Tool] = []
        self.server_info: types.Implementation | None = None
        self.instructions: str | None = None
        self._connect_timeout_s = connect_timeout_s
        self._on_tools_changed = on_tools_changed
        self._backoff_first_s = backoff_first_s
        self._backoff_max_s = backoff_max_s
        self._live: _Live | None = None
        self._wanted = anyio.Event()
        self._settled = anyio.Event()
        self._failures = 0
        self._retry_at = 0.0
        self._closed = False
        self._scope: anyio.CancelScope | None = None
        self._done = anyio.Event()
        if config.problem is not None:  # never started: the entry says why
            self.state = "unavailable"
            self.reason = config.problem
            self._settled.set()

    @property
    def usable(self) -> bool:
        """Whether the config entry can be used at all (an unusable one stays unavailable with its problem)."""
        return self.config.problem is None

    @property
    def closed(self) -> bool:
        """Whether the group was closed; no connection is made any more."""
        return self._closed

    def _stopped(self) -> bool:
        # A call, not an attribute: the group closes us while this task waits, which a type checker cannot see.
        return self._closed

    def __repr__(self) -> str:
        return f"<Upstream {self.name!r} {self.state} ({self.config.transport} {visible(self.config.target)})>"

    @property
    def connect_bound_s(self) -> float:
        """The longest one attempt to connect can take: stopping the previous attempt, then the handshake."""
        return self._connect_timeout_s + STOP_GRACE_S

    def retry_in(self) -> float:
        """Seconds until back-off allows the next attempt (0 when one may be made now)."""
        return max(self._retry_at - anyio.current_time(), 0.0)

    async def connect(self, timeout_s: float | None = None) -> None:
        """Make sure of a connection, starting the server again if it is down and back-off allows; never raises.

        For a caller that must see the server's tools before it may call one (policy is decided on them). Waits at
        most ``timeout_s``, and never longer than one attempt can take (:attr:`connect_bound_s`).
        """
        bound = self.connect_bound_s if timeout_s is None else min(timeout_s, self.connect_bound_s)
        with anyio.move_on_after(bound), contextlib.suppress(UpstreamCallError):  # `state` and `reason` say why
            await self._connection()

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        timeout_s: float,
        max_result_bytes: int,
        on_sent: Callable[[], None] | None = None,
    ) -> tuple[types.CallToolResult, int]:
        """Call ``tool`` upstream: its result as it came (``isError`` ones too) and its size in bytes as JSON.

        ``timeout_s`` bounds the whole call, a restart included. Cancelling the caller, or the timeout, sends
        ``notifications/cancelled`` upstream at once (the SDK's dispatcher does, shielded, within 5 s). ``on_sent`` is
        told when the request is handed to the connection: from then on the server may do the work.

        Raises:
            UpstreamCallError: no result; ``reason`` says why.
        """
        result: types.CallToolResult | None = None
        with anyio.move_on_after(timeout_s):
            live = await self._connection()
            if on_sent is not None:
                on_sent()
            result = await self._call(live, tool, arguments)
        if result is None:
            raise UpstreamCallError(
                f"{self.name}.{tool} did not answer within {timeout_s:g} s; the call was cancelled", reason="timeout"
            )
        # The SDK parses a reply before handing it over, so the size can only be checked afterwards.
        size = len(pydantic_core.to_json(result, by_alias=True, exclude_none=True))
        if size > max_result_bytes:
            raise UpstreamCallError(
                f"{self.name}.{tool} returned {size} bytes, more than the limit of {max_result_bytes}",
                reason="too_large",
            )
        return result, size

    async def _call(self, live: _Live, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        assert live.session is not None
        try:
            result = await live.session.call_tool(tool, arguments)
        except MCPError as exc:
            raise self._call_error(live, tool, exc) from exc
        except RuntimeError as exc:
            # The SDK's own checks: structuredContent missing or not matching the tool's outputSchema, or an
            # input-required result this client did not ask for. The first line says which.
            raise UpstreamCallError(self.config.redact(str(exc).splitlines()[0]), reason="protocol") from exc
        except ValidationError as exc:
            raise UpstreamCallError(f"{self.name}.{tool} answered with a malformed result", reason="protocol") from exc
        # An answer, even an isError one, shows the server works: the next failure restarts it at once again.
        self._failures = 0
        return result

    def _call_error(self, live: _Live, tool: str, exc: MCPError) -> UpstreamCallError:
        message = exc.error.message
        if exc.code == types.CONNECTION_CLOSED and message.startswith(_SDK_STREAM_FAILED):
            if "byte limit" in message:
                return UpstreamCallError(
                    f"{self.name}.{tool} sent a reply of more than {streamable_http.MAX_MESSAGE_BYTES} bytes",
                    reason="too_large",
                )
            return UpstreamCallError(f"{self.name}.{tool}: the reply could not be read ({message})", reason="protocol")
        closed = exc.code == types.CONNECTION_CLOSED and (
            live.lost.is_set() or message.startswith(_SDK_CLOSED_MESSAGES)
        )
        if not closed:
            return UpstreamCallError(self.config.redact(message), reason="protocol", code=exc.code)
        if self._closed:
            return UpstreamCallError(f"{self.name}: the upstream connections were closed", reason="unavailable")
        what = self._ended()
        self._lose(live, what)
        return UpstreamCallError(
            f"{what} during the call to {self.name}.{tool}; the next call starts it again", reason="crashed"
        )

    def _ended(self) -> str:
        kind = self.config.kind
        return kind.ended if kind is not None else "the connection to the server broke"

    async def _connection(self) -> _Live:
        """The ready connection, asking the owner for a new one when back-off allows."""
        asked = False
        while True:
            if self._closed:
                raise UpstreamCallError(f"{self.name}: the upstream connections were closed", reason="unavailable")
            if self.config.problem is not None:
                raise UpstreamCallError(f"{self.name} cannot be used: {self.config.problem}", reason="unavailable")
            live = self._live
            if self.state == "ready" and live is not None and not live.lost.is_set():
                return live
            if self.state == "starting":
                await self._settled.wait()
                continue
            wait = self._retry_at - anyio.current_time()
            if asked or wait > 0:
                later = f"; next attempt in {max(wait, 0):.1f} s" if wait > 0 else ""
                raise UpstreamCallError(f"{self.name} is unavailable: {self.reason}{later}", reason="unavailable")
            logger.info("upstream %s: starting again (%s)", visible(self.name), visible(self.reason or ""))
            self._request_connect()
            asked = True

    def _request_connect(self) -> None:
        self.state = "starting"
        self.reason = None
        self._settled = anyio.Event()
        self._wanted.set()

    def _shut(self) -> None:
        """Mark the upstream closed; calls waiting for a connection fail at once."""
        self._closed = True
        self.state = "unavailable"
        self.reason = "the upstream connections were closed"
        self._settled.set()
        self._wanted.set()
        if self._scope is not None:
            self._scope.cancel()

    def _failed(self, reason: str) -> None:
        """Record a failed attempt or a lost connection, and when the next attempt may be made."""
        reason = self.config.redact(reason)
        self._failures += 1
        # The first restart is at once (a crash caused by one call should not cost the next); then back off.
        delay = (
            0.0 if self._failures == 1 else min(self._backoff_first_s * 2 ** (self._failures - 2), self._backoff_max_s)
        )
        self._retry_at = anyio.current_time() + delay
        self.state = "unavailable"
        self.reason = reason
        self._settled.set()
        where = f"{visible(self.name)} ({visible(self.config.target)})"
        logger.warning("upstream %s: unavailable: %s", where, visible(reason))

    def _lose(self, live: _Live, reason: str) -> None:
        """The connection ``live`` is over; if it was the ready one, the upstream becomes unavailable."""
        if live.lost.is_set():
            return
        live.lost.set()
        if self._live is live and self.state == "ready" and not self._closed:
            self._failed(reason)

    async def _serve(self) -> None:
        """The owner task: make a connection whenever one is wanted, hold it until it ends. Never raises.

        :meth:`_shut` cancels the scope from the closing task; the SDK's shielded stdio shutdown still runs.
        """
        try:
            with anyio.CancelScope() as self._scope:
                while True:
                    await self._wanted.wait()
                    self._wanted = anyio.Event()
                    if self._stopped():
                        return
                    await self._attempt()
        finally:
            self._done.set()

    async def _attempt(self) -> None:
        try:
            await self._connect_and_hold()
        except Exception as exc:  # the owner is the top of this connection: a server's failure stays here
            detail = describe(exc, self.config)
            if self._stopped():
                pass
            elif self.state == "starting":
                self._failed(detail)
            elif self.state == "unavailable":
                # The loss was recorded when it was noticed; the transport's exception says more.
                self.reason = detail
                logger.info("upstream %s: the connection ended: %s", visible(self.name), visible(detail))

    async def _connect_and_hold(self) -> None:
        live = _Live()
        self._live = live
        async with open_transport(self.config) as (read, write), anyio.create_task_group() as group:
            try:
                await self._hold(live, group, read, write)
            finally:
                # The pump reads until the transport ends, which never happens while a server that failed its
                # handshake keeps running: without this the owner would wait here, and no call could retry.
                group.cancel_scope.cancel()

    async def _hold(
        self,
        live: _Live,
        group: anyio.abc.TaskGroup,
        read: ReadStream[SessionMessage | Exception],
        write: WriteStream[SessionMessage],
    ) -> None:
        """Shake hands on the open transport, then keep the connection until it is lost."""
        to_session, session_read = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        group.start_soon(self._pump, live, read, to_session)

        async def on_message(message: IncomingMessage) -> None:
            if isinstance(message, types.ToolListChangedNotification):
                live.relist.set()
            elif isinstance(message, Exception) and not live.garbled:
                live.garbled = True
                logger.warning("upstream %s: the server wrote output that is not JSON-RPC", visible(self.name))

        async with ClientSession(session_read, write, message_handler=on_message, client_info=client_info()) as s:
            live.session = s
            try:
                with anyio.fail_after(self._connect_timeout_s):
                    initialized = await s.initialize()
                    tools = await list_tools(s)
            except TimeoutError:
                garbled = " (its output was not JSON-RPC)" if live.garbled else ""
                self._failed(f"no answer to the MCP handshake within {self._connect_timeout_s:g} s{garbled}{SLOW_HINT}")
                return  # leaving the contexts stops the server; the state is already settled
            except (MCPError, RuntimeError, ValidationError) as exc:
                kind = self.config.kind
                ended = "exited" if kind is not None and kind.local else "closed the connection"
                self._failed(f"the server {ended} during the MCP handshake" if live.lost.is_set() else
                             f"the MCP handshake failed: {describe(exc, self.config)}")  # fmt: skip
                return
            self._become_ready(initialized, tools)
            group.start_soon(self._relist, live)
            try:
                await live.lost.wait()
            finally:
                self._lose(live, "the connection ended")

    def _become_ready(self, initialized: types.InitializeResult, tools: list[types.Tool]) -> None:
        changed = bool(self.server_info) and _dumped(tools) != _dumped(self.tools)
        self.tools = tools
        self.server_info = initialized.server_info
        self.instructions = initialized.instructions
        self.state = "ready"
        self.reason = None
        self._settled.set()
        info = initialized.server_info
        logger.info(
            "upstream %s: connected to %s (%s %s, protocol %s, %d tools)",
            visible(self.name), visible(self.config.target), visible(info.name), visible(info.version),
            visible(str(initialized.protocol_version)), len(tools),
        )  # fmt: skip
        if changed:
            self._tools_changed()

    async def _pump(
        self, live: _Live, source: ReadStream[SessionMessage | Exception], sink: MemoryObjectSendStream[Any]
    ) -> None:
        """Pass messages to the session; notice the end of the transport's stream, which the session keeps to
        itself (its pending requests then fail with CONNECTION_CLOSED)."""
        try:
            async for item in source:
                await sink.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            pass
        finally:
            # Lost first, then close: a call woken by the close must already see the connection as gone.
            kind = self.config.kind
            self._lose(
                live,
                "the server process exited" if kind is not None and kind.local else "the server closed the connection",
            )
            sink.close()

    async def _relist(self, live: _Live) -> None:
        """Follow ``notifications/tools/list_changed``: list every page again, then tell the owner of the group."""
        assert live.session is not None
        while True:
            await live.relist.wait()
            live.relist = anyio.Event()
            try:
                with anyio.fail_after(self._connect_timeout_s):
                    tools = await list_tools(live.session)
            except (MCPError, RuntimeError, ValidationError, TimeoutError) as exc:
                detail = visible(describe(exc, self.config))
                logger.warning("upstream %s: listing tools again failed: %s", visible(self.name), detail)
                continue
            if self._live is live:
                self.tools = tools
                logger.info("upstream %s: tool list changed (%d tools)", visible(self.name), len(tools))
                self._tools_changed()

    def _tools_changed(self) -> None:
        if self._on_tools_changed is None:
            return
        try:
            self._on_tools_changed(self.name)
        except Exception:  # the callback is the caller's code; its bug must not end our connection
            logger.exception("upstream %s: the tools-changed callback raised", visible(self.name))


def _dumped(tools: list[types.Tool]) -> list[dict[str, Any]]:
    return [tool.model_dump(mode="json", exclude_none=True) for tool in tools]
