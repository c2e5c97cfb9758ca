"""Whether the state store answers, as the health endpoint reports it."""

from __future__ import annotations

from typing import Any

import anyio

from sandbox_server.journal.store import StateStore

__all__ = ["HEALTH_TIMEOUT_S", "store_health"]

HEALTH_TIMEOUT_S = 2.0
"""The longest a health check waits for the store: a load balancer's check must not hang on it."""


async def store_health(store: StateStore | None, timeout_s: float = HEALTH_TIMEOUT_S) -> dict[str, Any]:
    """``{"kind": ..., "ok": ...}``: the store's kind, and whether it answered within ``timeout_s``."""
    if store is None:
        return {"kind": "none", "ok": True}
    ok = False
    with anyio.move_on_after(timeout_s):
        ok = await store.healthy()
    return {"kind": store.kind, "ok": ok}
