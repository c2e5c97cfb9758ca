"""Server middleware that says what to do about a request state the SDK refused.

The SDK's ``RequestStateBoundary`` answers every state that fails its checks with one fixed message and logs the
reason; placed outside it, :class:`RequestStateProblems` replaces that message with one that names the cause a
client or operator can act on (the keys replicas must share, the lifetime of a paused run), from the reason
:class:`~sandbox_server.journal.keys.DiagnosingCodec` noted for the request. Nothing secret is in it.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError

from sandbox_server.journal.keys import state_problem_message

__all__ = ["RequestStateProblems"]


class RequestStateProblems:
    """Rewrites the SDK's refusal of a request state (``ttl_s``: the lifetime of a paused run, for the message)."""

    def __init__(self, ttl_s: float) -> None:
        self._ttl_s = ttl_s

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        try:
            return await call_next(ctx)
        except MCPError as exc:
            data = exc.error.data
            if isinstance(data, dict) and data.get("reason") == "invalid_request_state":
                raise MCPError(code=exc.error.code, message=state_problem_message(self._ttl_s), data=data) from None
            raise
