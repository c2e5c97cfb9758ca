"""The user's consent to one upstream call, asked through MCP elicitation (form mode).

The form has one field, ``allow``, so that a client that shows the form and returns it unchanged has not consented
by default: only ``accept`` with ``allow`` true runs the call. The question rides the request that runs the code
(``related_request_id``), so that over HTTP it reaches the client on that request's stream.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError, NoBackChannelError

from sandbox_server.errors import ConsentUnavailable
from sandbox_server.upstream.escapes import visible
from sandbox_server.upstream.service import ConsentAnswer

__all__ = ["CONSENT_SCHEMA", "Elicitation"]

logger = logging.getLogger("sandbox_server.upstream")

CONSENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "allow": {
            "type": "boolean",
            "title": "Allow this call",
            "description": "Run this one call of the tool with the arguments shown",
            "default": False,
        }
    },
    "required": ["allow"],
}


class Elicitation:
    """Asks the user of one client session, for one request."""

    def __init__(self, session: ServerSession, request_id: Any) -> None:
        self._session = session
        self._request_id = request_id

    async def __call__(self, message: str) -> ConsentAnswer:
        try:
            result = await self._session.elicit_form(message, CONSENT_SCHEMA, related_request_id=self._request_id)
        except NoBackChannelError:
            raise ConsentUnavailable("this connection has no way to ask the client's user") from None
        except MCPError as exc:
            logger.info("the client refused the consent request: %s", visible(str(exc)))
            raise ConsentUnavailable(f"the client could not ask its user ({exc})") from None
        if result.action != "accept":
            return "decline" if result.action == "decline" else "cancel"
        content = result.content or {}
        return "accept" if content.get("allow") is True else "decline"
