"""The server's answer to one call that running code makes to the host: what the execution's service returns, or
the error the code gets instead. Nothing a service raises reaches the pool; a failure of the server itself is
logged and answered as one."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import anyio

from sandbox_server.sandbox.protocol import CURRENT_HOST_CALL, HostCallFailed, HostService
from sandbox_server.sandbox.slots import Pending, Slot

__all__ = ["answer_host_call", "host_answer"]

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


async def answer_host_call(slot: Slot, pending: Pending, message: dict[str, Any]) -> None:
    """Answer one host call of ``pending``'s code on ``slot``'s worker, unless the job ends first (then the call is
    cancelled)."""
    call = message.get("call")
    kind = message.get("kind")
    if not isinstance(call, int) or not isinstance(kind, str):
        return
    CURRENT_HOST_CALL.set(call)  # this task's own context: the services may answer by the call's id
    with anyio.CancelScope() as scope:
        pending.host_calls.add(scope)
        try:
            answer = await host_answer(pending.job.host, kind, message.get("payload"))
        finally:
            pending.host_calls.discard(scope)
    if scope.cancelled_caught or slot.job is not pending or slot.state != "busy":
        return
    with contextlib.suppress(anyio.BrokenResourceError):
        await slot.worker.send({"op": "hostResult", "id": pending.id, "call": call, **answer})
