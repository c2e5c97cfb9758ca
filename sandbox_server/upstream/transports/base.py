"""What one kind of upstream transport is: which entries of the config file it reads, and how it opens a connection
through the SDK. Adding a kind is one module beside this one, with its class named in ``KINDS``
(``transports/__init__.py``)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from mcp.client._transport import TransportStreams

from sandbox_server.upstream.entries import Entry

if TYPE_CHECKING:
    from sandbox_server.upstream.config import ServerConfig

__all__ = ["TransportKind", "UrlTransport"]


class TransportKind:
    """One kind of transport. Subclasses set the class attributes and implement :meth:`read` and :meth:`open`."""

    name: ClassVar[str]
    """The kind's name, as ``ServerConfig.transport`` holds it."""
    types: ClassVar[tuple[str, ...]]
    """The values of an entry's ``type`` (or Cline's ``transportType``) that choose this kind."""
    keys: ClassVar[frozenset[str]]
    """The entry's keys this kind reads; the other kinds' keys are wrong in its entry."""
    ended: ClassVar[str] = "the connection to the server broke"
    """How the end of a connection is said in reasons ("the server process exited")."""
    local: ClassVar[bool] = False
    """Whether the server is a process this server starts (its target is a command, not a URL)."""

    def infer(self, entry: Entry) -> bool:
        """Whether an entry with no ``type`` is of this kind."""
        return False

    def read(self, entry: Entry) -> dict[str, Any]:
        """The :class:`~sandbox_server.upstream.config.ServerConfig` fields of ``entry``.

        Raises:
            EntryProblem: the entry cannot be used by this kind.
        """
        raise NotImplementedError

    def open(self, config: ServerConfig) -> AbstractAsyncContextManager[TransportStreams]:
        """The SDK transport's streams for ``config``, open for the block."""
        raise NotImplementedError


class UrlTransport(TransportKind):
    """A kind that reaches a server at an http(s) URL, with headers."""

    keys = frozenset({"url", "headers"})

    def read(self, entry: Entry) -> dict[str, Any]:
        url = entry.expanded("url")
        if url is None:
            entry.fail("url", "is missing", "the server's endpoint, http(s)://host/path")
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            entry.fail("url", "is not an http(s) URL", "http://host:port/path or https://host/path")
        return {"url": url, "headers": entry.expanded_map("headers")}
