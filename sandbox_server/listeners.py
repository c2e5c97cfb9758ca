"""Who to tell when the upstream servers' tools change, and so ``execute_js_with_tools``'s description and
annotations: on 2025-11-25, the client connections that listed or called tools (``notifications/tools/list_changed``);
on 2026-07-28, the ``subscriptions/listen`` streams that asked for tool changes (the SDK's listen handler over a
subscription bus)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged

from sandbox_server.upstream.escapes import visible

__all__ = ["ToolListListeners"]

logger = logging.getLogger("sandbox_server")


class ToolListListeners:
    """Those to tell when an upstream server's tools change: the client connections that listed or called tools
    (held weakly: one that ended is simply gone), and the listen streams of the current revision."""

    def __init__(self) -> None:
        self.connections: weakref.WeakSet[Any] = weakref.WeakSet()
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        """The ``subscriptions/listen`` handler (2026-07-28): each stream that asked for tool changes gets them."""
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, server: str) -> None:
        """Called by the upstream connection whose tools changed, on the event loop."""
        task = asyncio.get_running_loop().create_task(self._tell(server))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tell(self, server: str) -> None:
        await self.bus.publish(ToolsListChanged())
        for connection in list(self.connections):
            try:
                await connection.send_tool_list_changed()
            except Exception:  # a session that is closing, or a stateless request's: nobody left to tell
                logger.debug("could not tell a client that %s's tools changed", visible(server), exc_info=True)

    def close(self) -> None:
        """End the listen streams gracefully (the server is stopping)."""
        self.listen.close()
