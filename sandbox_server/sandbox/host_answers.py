"""The server's answer to one call that running code makes to the host: what the execution's service returns, or
the error the code gets instead. Nothing a service raises reaches the pool; a failure of the server itself is
logged and answered as one."""

from __future__ import annotations

import logging
from typing import Any

from sandbox_server.sandbox.protocol import HostCallFailed, HostService

__all__ = ["host_answer"]

logger = logging.getLogger(__name__)


async def host_answer(service: HostService | None, kind: str, payload: Any) -> dict[str, Any]:
    """``{"ok": True, "value": ...}`` or ``{"ok": False, "error": {...}}`` for one call of ``kind``."""
    try:
        if service is None:
            raise HostCallFailed({"name": "HostCallRefused", "message": "this call cannot reach the host"})
        return {"ok": True, "value": await service.handler(kind, payload)}
    except HostCallFailed as exc:
        return {"ok": False, "error": exc.error}
    except Exception:
        logger.exception("a host call (%s) failed inside the server", kind)
        return {"ok": False, "error": {"name": "Error", "message": "the server failed to answer this call"}}
