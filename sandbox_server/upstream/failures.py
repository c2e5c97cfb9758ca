"""How a call to an upstream server can fail without a result: one error, :class:`UpstreamCallError`, whose
``reason`` is one of::

    protocol      the server answered with a JSON-RPC error, or with a result that breaks the protocol
    timeout       no answer within the call's time limit (``notifications/cancelled`` went upstream)
    unavailable   there is no connection and none can be made now (back-off, or the group is closed)
    crashed       the connection ended during the call (the process exited, the HTTP stream broke)
    too_large     the result is bigger than the caller accepts
"""

from __future__ import annotations

from typing import Literal

__all__ = ["CallFailure", "UpstreamCallError"]

CallFailure = Literal["protocol", "timeout", "unavailable", "crashed", "too_large"]


class UpstreamCallError(Exception):
    """A call that did not produce a result; ``message`` is safe to show to the model."""

    def __init__(self, message: str, *, reason: CallFailure, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason: CallFailure = reason
        self.code = code
        """The JSON-RPC error code, when the server answered with an error."""
