"""All configured upstream servers: connected together at start, closed together at the end.

The SDK has ``ClientSessionGroup``, but it does not fit: it names tools by a hook over ``serverInfo`` (we name
servers by their config key), merges every server's tools into one namespace, raises when one server fails to
connect (one broken server must not stop the others), and neither restarts a server that dies nor bounds the
connect. So each server gets its own :class:`~sandbox_server.upstream.connection.Upstream`, and this class only
starts and stops their owner tasks.

The owner tasks are asyncio tasks, not children of a task group entered by :meth:`Upstreams.start`: such a group
would tie :meth:`~Upstreams.start` and :meth:`~Upstreams.aclose` to one task and to the cancel scopes around the
call (``with fail_after(...): await upstreams.start()`` would break it). Each owner task enters and leaves its
own contexts; :meth:`~Upstreams.aclose` cancels the owner's scope and waits for it, so the SDK's shielded stdio
shutdown still runs. This needs the asyncio backend, which is what the server runs on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Self

import anyio

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import (
    BACKOFF_FIRST_S,
    BACKOFF_MAX_S,
    DEFAULT_CONNECT_TIMEOUT_S,
    STOP_GRACE_S,
    Upstream,
    logger,
)
from sandbox_server.upstream.escapes import visible

__all__ = ["Upstreams"]


class Upstreams:
    """The upstream servers by name; :meth:`start` connects them, :meth:`aclose` stops them.

    ``start`` and ``aclose`` may be called from any tasks of one event loop; ``async with Upstreams(...)`` does
    both. Iterating yields the :class:`Upstream` objects in config order.
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
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._started = False
        self._closed = False

    async def start(self) -> None:
        """Connect to every server at once; return when each is ready or has failed (within the connect timeout).

        A server that fails is logged and left ``"unavailable"``; its next call tries again. Never raises for a
        server's failure.
        """
        if self._started or self._closed:
            raise RuntimeError("Upstreams.start() may be called once, before aclose()")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError("Upstreams needs the asyncio backend") from None
        self._started = True
        for upstream in self._upstreams.values():
            if not upstream.usable:
                continue
            upstream._request_connect()
            # Kept here: the event loop holds tasks only weakly.
            task = loop.create_task(upstream._serve(), name=f"upstream {visible(upstream.name)}")
            task.add_done_callback(_report)
            self._tasks[upstream.name] = task
        with anyio.move_on_after(self._connect_timeout_s + STOP_GRACE_S):
            for upstream in self._upstreams.values():
                await upstream._settled.wait()
        ready = sum(upstream.state == "ready" for upstream in self._upstreams.values())
        logger.info("upstream servers: %d of %d ready", ready, len(self._upstreams))

    async def aclose(self) -> None:
        """Close every connection and stop every stdio server (stdin closed, then SIGTERM, then SIGKILL).

        Idempotent. All servers stop at the same time; one that ignores the end of its input costs the SDK's grace
        periods (2 s, then 2 s after SIGTERM). Cancelling ``aclose`` stops the waiting, not the stopping.
        """
        if not self._closed:
            self._closed = True
            for upstream in self._upstreams.values():
                upstream._shut()
        for name, task in self._tasks.items():
            if not task.done():
                await self._upstreams[name]._done.wait()

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

    def __repr__(self) -> str:
        return f"<Upstreams {', '.join(f'{u.name}={u.state}' for u in self)}>"

    def names(self) -> list[str]:
        """The server names, in config order."""
        return list(self._upstreams)


def _report(task: asyncio.Task[None]) -> None:
    """An owner task never raises; if one does (a bug), say so rather than let asyncio warn at exit."""
    if not task.cancelled() and (error := task.exception()) is not None:
        logger.error("%s stopped on an unexpected error", task.get_name(), exc_info=error)
