"""The kinds of transport an upstream server can be reached by, one module each: ``stdio`` (a child process),
``streamable_http`` (MCP's HTTP transport) and ``sse`` (the legacy HTTP+SSE transport). ``KINDS`` lists them in
the order an entry without a ``type`` is matched against them."""

from __future__ import annotations

from sandbox_server.upstream.transports.base import TransportKind
from sandbox_server.upstream.transports.sse import Sse
from sandbox_server.upstream.transports.stdio import Stdio
from sandbox_server.upstream.transports.streamable_http import MAX_MESSAGE_BYTES, StreamableHttp

__all__ = ["KINDS", "MAX_MESSAGE_BYTES", "TransportKind", "kind_named"]

KINDS: tuple[TransportKind, ...] = (Stdio(), StreamableHttp(), Sse())


def kind_named(name: str) -> TransportKind:
    """The kind whose ``name`` is ``name`` (as ``ServerConfig.transport`` holds it)."""
    for kind in KINDS:
        if kind.name == name:
            return kind
    raise KeyError(name)
