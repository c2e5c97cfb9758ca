"""Tool results: one shape for every tool, always mirroring structured data into readable text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mcp_types as types

__all__ = ["InputRequired", "ToolResult", "error", "ok"]


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool hands back to the server.

    Attributes:
        text: The facts of the result as text a model can read; clients differ in whether they show the model
            ``content`` or ``structuredContent``, so both must carry the answer.
        structured: The same facts as a JSON object conforming to the tool's output schema, or None.
        is_error: Whether the call failed in a way the model should see and can act on.
        kind: A one-word label of the outcome for logs (``ok``, ``error``, ``internal``); not sent to clients.
    """

    text: str
    structured: dict[str, Any] | None = field(default=None)
    is_error: bool = False
    kind: str = "ok"
    images: tuple[tuple[str, str], ...] = ()
    """Images shown after the text, as ``(mime type, base64 data)``."""

    def to_mcp(self) -> types.CallToolResult:
        """Convert to the protocol's ``CallToolResult``."""
        images: list[types.ContentBlock] = [
            types.ImageContent(type="image", data=data, mime_type=mime) for mime, data in self.images
        ]
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=self.text), *images],
            structured_content=self.structured,
            is_error=self.is_error,
        )


@dataclass(frozen=True, slots=True)
class InputRequired:
    """What a tool hands back instead of a result when it needs the user's answer first (MCP 2026-07-28): the
    client asks its user ``requests`` and calls the tool again with the answers and ``state``, which the server
    seals before it leaves and unseals when it comes back."""

    requests: dict[str, types.ElicitRequest]
    state: str

    def to_mcp(self) -> types.InputRequiredResult:
        return types.InputRequiredResult(input_requests=dict(self.requests), request_state=self.state)


def ok(text: str, structured: dict[str, Any]) -> ToolResult:
    """Build a successful result."""
    return ToolResult(text=text, structured=structured)


def error(message: str, structured: dict[str, Any] | None = None, *, kind: str = "error") -> ToolResult:
    """Build an ``isError`` result whose text starts with ``Error:``."""
    text = message if message.startswith("Error:") else f"Error: {message}"
    return ToolResult(text=text, structured=structured, is_error=True, kind=kind)
