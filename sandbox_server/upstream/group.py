"""All configured upstream servers: connected together at start, closed together at the end.

The SDK has ``ClientSessionGroup``, but it does not fit: it names tools by a hook over ``serverInfo`` (we name
servers by their config key), merges every server's tools into one namespace, raises when one server fails to
connect (one broken server must not stop the others), and neither restarts a server that dies nor bounds the
connect. So each server gets its own :class:`~sandbox_server.upstream.connection.Upstream`, and this class only
owns their tasks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Self

import anyio
import anyio.abc

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import (
    BACKOFF_FIRST_S,
    BACKOFF_MAX_S,
    DEFAULT_CONNECT_TIMEOUT_S,
    Upstream,
    logger,
)

__all__ = ["Upstreams"]

_SETTLE_MARGIN_S = 5.0
"""Beyond the connect timeout, how long ``start`` waits for an attempt to be recorded; only a bug needs it."""


class Upstreams:
    """The upstream servers by name; :meth:`start` connects them, :meth:`aclose` stops them.

    The owner tasks live in a task group that :meth:`start` enters and :meth:`aclose` leaves, so both must be
    called from the same task (``async with Upstreams(...)`` does that), and cancel scopes entered in between
    must be left before :meth:`aclose`.
    """

    def __init__(
        self,
        configs: Sequence[ServerConfig],
        *,
        connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S,
        on_tools_changed: Callable[[str], None] | None = None,
        backoff_first_s: float = BACKOFF_FIRST_S,
        backoff_max_s: float = BACKOFF_MAX_S,
    ) -> None:
        self._upstreams: dict[str, Upstream] = {}
        for config in configs:
            if config.name in self._upstreams:
                raise ValueError(f"two upstream servers are named {config.name!r}")
            self._upstreams[config.name] = Upstream(
                config,
                connect_timeout_s=connect_timeout_s,
                on_tools_changed=on_tools_changed,
                backoff_first_s=backoff_first_s,
                backoff_max_s=backoff_max_s,
            )
        self._connect_timeout_s = connect_timeout_s
        self._group: anyio.abc.TaskGroup | None = None
        self._closed = False

    async def start(self) -> None:
        """Connect to every server at once; return when each is ready or has failed (within the connect timeout).

        A server that fails is logged and left ``"unavailable"``; its next call tries again. Never raises for a
        server's failure.
        """
        if self._group is not None or self._closed:
            raise RuntimeError("Upstreams.start() may be called once, before aclose()")
        group = anyio.create_task_group()
        await group.__aenter__()
        self._group = group
        for upstream in self._upstreams.values():
            group.start_soon(upstream._serve, name=f"upstream {upstream.name}")
            upstream._request_connect()
        with anyio.move_on_after(self._connect_timeout_s + _SETTLE_MARGIN_S):
            for upstream in self._upstreams.values():
                await upstream._settled.wait()
        ready = sum(upstream.state == "ready" for upstream in self._upstreams.values())
        logger.info("upstream servers: %d of %d ready", ready, len(self._upstreams))

    async def aclose(self) -> None:
        """Close every connection and stop every stdio server (stdin closed, then SIGTERM, then SIGKILL).

        Idempotent. A server that ignores the end of its input costs the SDK's grace periods (2 s, then 2 s after
        SIGTERM); all servers are stopped at the same time.
        """
        if self._closed:
            return
        self._closed = True
        for upstream in self._upstreams.values():
            upstream._shut()
        group, self._group = self._group, None
        if group is not None:
            group.cancel_scope.cancel()
            await group.__aexit__(None, None, None)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        await self.aclose()

    def __getitem__(self, name: str) -> Upstream:
        return self._upstreams[name]

    def __contains__(self, name: object) -> bool:
        return name in self._upstreams

    def __iter__(self) -> Iterator[Upstream]:
        return iter(self._upstreams.values())

    def __len__(self) -> int:
        return len(self._upstreams)

    def names(self) -> list[str]:
        """The server names, in config order."""
        return list(self._upstreams)
