"""What an upstream tool's result becomes in the code that called it: one shape for every kind of result.

The host answers a call with one of (the runtime, ``js_runtime/tools.js``, builds the value from it)::

    {"structured": value, "content": blocks | "json"}   structuredContent: the value is that object
    {"json": value, "text": text}                       one text block holding a JSON object or array: parsed
    {"text": text}                                      text blocks only (joined with newlines): the string
    {"content": blocks}                                 images, audio, resources, links, mixed or no blocks

In the code, every result has ``.content``, the result's content blocks as MCP gives them (``[{type: "text",
text}]`` for a string; on an object, a property of its own that is not enumerable, unless the object has a
``content`` of its own); ``"json"`` stands for the blocks when they are exactly one text block holding the value's
JSON, so the same data does not cross the bridge twice. An ``isError`` result is a failure whose message is the
upstream's own text.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

__all__ = ["MAX_ERROR_CHARS", "error_text", "result_value"]

MAX_ERROR_CHARS = 4_000
"""Longest upstream error text passed on; the rest is cut, saying so."""


def result_value(result: types.CallToolResult) -> dict[str, Any]:
    """What the host sends the runtime for a successful ``result`` (see the module)."""
    blocks = result.content
    if result.structured_content is not None:
        if len(blocks) == 1 and isinstance(blocks[0], types.TextContent) and _same_json(blocks[0].text, result):
            return {"structured": result.structured_content, "content": "json"}
        return {"structured": result.structured_content, "content": _dumped(blocks)}
    if blocks and all(isinstance(block, types.TextContent) for block in blocks):
        texts = [block.text for block in blocks if isinstance(block, types.TextContent)]
        text = "\n".join(texts)
        stripped = text.strip()
        if len(texts) == 1 and stripped[:1] in ("{", "["):
            try:
                return {"json": json.loads(stripped), "text": text}
            except ValueError:
                pass
        return {"text": text}
    return {"content": _dumped(blocks)}


def _dumped(blocks: list[Any]) -> list[dict[str, Any]]:
    return [block.model_dump(mode="json", by_alias=True, exclude_none=True) for block in blocks]


def _same_json(text: str, result: types.CallToolResult) -> bool:
    stripped = text.strip()
    if stripped[:1] != "{":
        return False
    try:
        return bool(json.loads(stripped) == result.structured_content)
    except ValueError:
        return False


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
