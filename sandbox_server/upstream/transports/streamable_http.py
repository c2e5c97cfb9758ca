"""An upstream server reached over Streamable HTTP (the current HTTP transport of MCP), with the entry's headers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mcp.client._transport import TransportStreams
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from sandbox_server.upstream.entries import Entry
from sandbox_server.upstream.transports.base import UrlTransport

if TYPE_CHECKING:
    from sandbox_server.upstream.config import ServerConfig

__all__ = ["MAX_MESSAGE_BYTES", "StreamableHttp"]

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest server-sent event read from an HTTP upstream. The SDK's default (1 MiB) is below results a caller
may accept; ``max_result_bytes`` is the real per-call limit. (stdio lines have no limit in the SDK.)"""


class StreamableHttp(UrlTransport):
    name = "http"
    types = ("http", "streamable-http", "streamableHttp", "streamable_http")

    def infer(self, entry: Entry) -> bool:
        url = entry.data.get("url")
        return isinstance(url, str) and not _sse_path(url)

    @asynccontextmanager
    async def open(self, config: ServerConfig) -> AsyncIterator[TransportStreams]:
        assert config.url is not None
        async with (
            create_mcp_http_client(headers=dict(config.headers)) as client,
            streamable_http_client(config.url, http_client=client, max_sse_event_size=MAX_MESSAGE_BYTES) as streams,
        ):
            yield streams


def _sse_path(url: str) -> bool:
    try:
        return urlsplit(url).path.rstrip("/").endswith("/sse")
    except ValueError:
        return False
