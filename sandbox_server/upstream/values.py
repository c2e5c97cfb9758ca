"""What an upstream tool's result becomes in the code that called it.

The value is the result's ``structuredContent`` when there is one; otherwise a single text block that holds valid
JSON is parsed, and any other single text block is the text itself; other content (several blocks, images, audio,
resources) comes as a list of plain objects, as the protocol describes them. An ``isError`` result is a failure
whose message is the upstream's own text.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

__all__ = ["MAX_ERROR_CHARS", "error_text", "result_value"]

MAX_ERROR_CHARS = 4_000
"""Longest upstream error text passed on; the rest is cut, saying so."""


def result_value(result: types.CallToolResult) -> Any:
    """The value the code's ``await tools.server.tool(...)`` gives for a successful ``result``."""
    if result.structured_content is not None:
        return result.structured_content
    blocks = result.content
    if not blocks:
        return None
    if len(blocks) == 1 and isinstance(blocks[0], types.TextContent):
        text = blocks[0].text
        stripped = text.strip()
        if stripped[:1] in ("{", "[", '"') or stripped in ("true", "false", "null") or _numeric(stripped):
            try:
                return json.loads(stripped)
            except ValueError:
                return text
        return text
    return [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in blocks]


def _numeric(text: str) -> bool:
    return bool(text) and (text[0].isdigit() or (text[0] == "-" and text[1:2].isdigit()))


def error_text(result: types.CallToolResult) -> str:
    """The message of an ``isError`` result: its text blocks, or a sentence saying it gave none."""
    texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
    text = "\n".join(texts).strip()
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False)[:MAX_ERROR_CHARS]
    if not text:
        return "the tool reported an error and gave no message"
    if len(text) > MAX_ERROR_CHARS:
        return text[:MAX_ERROR_CHARS] + f"… ({len(text) - MAX_ERROR_CHARS} more characters left out)"
    return text
