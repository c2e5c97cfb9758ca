"""Reaching an upstream server through the SDK: its transport opened from a config (by its kind), its tools listed
page by page (one entry per name), and a failure described without the secrets a library's message may quote."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
import mcp_types as types
from mcp import ClientSession
from mcp.client._transport import TransportStreams
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from sandbox_server.identity import SERVER_NAME, package_version
from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.policy import strictest
from sandbox_server.upstream.transports import MAX_MESSAGE_BYTES

__all__ = ["MAX_MESSAGE_BYTES", "MAX_TOOL_PAGES", "client_info", "describe", "list_tools", "open_transport"]

MAX_TOOL_PAGES = 1_000
"""A server that keeps handing out cursors is broken; stop listing rather than loop for ever."""


@asynccontextmanager
async def open_transport(config: ServerConfig) -> AsyncIterator[TransportStreams]:
    """The SDK transport for ``config``, by its kind (``upstream/transports``)."""
    kind = config.kind
    if kind is None or config.problem is not None:
        raise RuntimeError(config.problem or f"no transport of the kind {config.transport!r}")
    async with kind.open(config) as streams:
        yield streams


async def list_tools(session: ClientSession) -> list[types.Tool]:
    """Every tool the server lists, following ``nextCursor`` page after page; a name listed twice appears once, as
    its strictest entry (see :func:`~sandbox_server.upstream.policy.strictest`)."""
    tools: list[types.Tool] = []
    cursor: str | None = None
    seen: set[str] = set()
    for _ in range(MAX_TOOL_PAGES):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            return strictest(tools)
        if cursor in seen:
            raise RuntimeError("tools/list returned a cursor it had returned before")
        seen.add(cursor)
    raise RuntimeError(f"tools/list returned more than {MAX_TOOL_PAGES} pages")


def describe(exc: BaseException, config: ServerConfig) -> str:
    """Why a connection failed, in words without secrets: library messages may quote a URL or a header."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        text = f"error {exc.code}: {exc.error.message}"
    elif isinstance(exc, httpx2.TimeoutException):
        text = f"timed out reaching {config.target}"
    elif isinstance(exc, httpx2.ConnectError):
        text = f"cannot connect to {config.target}"
    elif isinstance(exc, httpx2.HTTPError):
        text = f"HTTP failure talking to {config.target} ({type(exc).__name__})"
    elif isinstance(exc, OSError):
        text = f"cannot start {config.target}: {exc.strerror or type(exc).__name__}"
    elif isinstance(exc, ValidationError):
        text = _invalid(exc)
    elif isinstance(exc, RuntimeError | ValueError):
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    else:
        text = type(exc).__name__
    return config.redact(text)


def _invalid(exc: ValidationError) -> str:
    """Where a server's answer breaks the protocol's schema, without the values it sent."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    if not errors:
        return "an answer does not follow the MCP schema"
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"])[:200]
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"an answer does not follow the MCP schema: {where}: {first['msg'][:200]}{more}"


def client_info() -> types.Implementation:
    """Who this server is to the servers it calls."""
    return types.Implementation(name=SERVER_NAME, version=package_version())
