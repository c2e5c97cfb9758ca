"""An upstream server reached over the legacy HTTP+SSE transport (MCP 2024-11-05): events on one GET stream,
messages POSTed to the endpoint the server names, which must be on the same origin (the SDK's ``sse_client``
checks it). Chosen by ``"type": "sse"``, or for a URL without a type whose path ends in ``/sse``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from mcp.client._transport import TransportStreams
from mcp.client.sse import sse_client

from sandbox_server.upstream.entries import Entry
from sandbox_server.upstream.transports.base import UrlTransport
from sandbox_server.upstream.transports.streamable_http import _sse_path

if TYPE_CHECKING:
    from sandbox_server.upstream.config import ServerConfig

__all__ = ["SSE_READ_TIMEOUT_S", "Sse"]

SSE_READ_TIMEOUT_S = 24 * 3600.0
"""How long the event stream may stay silent: a server with nothing to say sends nothing (the SDK's default, 5
minutes, would drop an idle connection); a dead one is noticed by the call that waits on it (``timeout``)."""


class Sse(UrlTransport):
    name = "sse"
    types = ("sse",)

    def infer(self, entry: Entry) -> bool:
        url = entry.data.get("url")
        return isinstance(url, str) and _sse_path(url)

    @asynccontextmanager
    async def open(self, config: ServerConfig) -> AsyncIterator[TransportStreams]:
        assert config.url is not None
        async with sse_client(config.url, headers=dict(config.headers), sse_read_timeout=SSE_READ_TIMEOUT_S) as streams:
            yield streams
