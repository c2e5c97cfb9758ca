"""Compact signatures of upstream tools, one line each, for the description of ``execute_js_with_tools``: enough to
write the call without a ``tools.$describe`` first (argument names, types, which are optional; the result's shape),
few enough tokens to list a whole small catalogue. ``tools.$describe`` gives the full declaration with the docs.

A signature reads ``get_record({id: number, fields?: string[]}): {record: {id: number, name: string, …}}`` (the
argument is the one object the call takes; when every member is optional it may be left out): object
types are written inline, nested objects past :data:`MAX_DEPTH` and members past :data:`MAX_MEMBERS` become ``…``,
a ``$ref`` becomes the last word of its pointer. Schemas are untrusted: any JSON value is accepted and the text is
bounded (:data:`MAX_SIGNATURE_CHARS`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from sandbox_server.upstream.catalog import ToolInfo, quote
from sandbox_server.upstream.typescript import property_key

__all__ = ["MAX_SIGNATURE_CHARS", "result_type", "signature"]

MAX_DEPTH = 3
MAX_MEMBERS = 12
MAX_ENUM = 6
MAX_SIGNATURE_CHARS = 400
_PRIMITIVES = {"string": "string", "number": "number", "integer": "number", "boolean": "boolean", "null": "null"}
_CONTENT_WORDS = ("image", "audio", "resource", "blob", "base64", "binary", "media", "screenshot", "picture")
TEXT_RESULT = "string | object"
"""The result type of a tool without an output schema: its text, or the parsed value when that text is one JSON
object or array (``values.result_value``), which no declaration can tell apart before the call."""
CONTENT_RESULT = "ToolContent"
"""The result type of a tool without an output schema that says it gives images, audio or resources."""


def signature(tool: ToolInfo, name: str) -> str:
    """``name(args): Result`` for ``tool``, on one line."""
    args = _type(tool.input_schema, 1) if tool.input_schema is not None else "{}"
    shown = "()" if args in ("{}", "object") else f"({args})"
    text = f"{name}{shown}: {result_type(tool, compact=True)}"
    return text if len(text) <= MAX_SIGNATURE_CHARS else text[: MAX_SIGNATURE_CHARS - 1] + "…"


def result_type(tool: ToolInfo, *, compact: bool) -> str:
    """What a call of ``tool`` resolves to when it has no output schema: its text, parsed when it is JSON
    (``string | object``), or for a tool whose description speaks of images, audio or resources, the content object
    (``ToolContent``). With a schema (and ``compact``), its compact type."""
    if tool.output_schema is not None and compact:
        return _type(tool.output_schema, 1)
    words = f"{tool.name} {tool.title or ''} {tool.description or ''}".lower()
    return CONTENT_RESULT if any(word in words for word in _CONTENT_WORDS) else TEXT_RESULT


def _type(schema: object, depth: int) -> str:
    if schema is True or not isinstance(schema, Mapping):
        return "never" if schema is False else "unknown"
    if "const" in schema:
        return _literal(schema["const"])
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        shown = [_literal(value) for value in enum[:MAX_ENUM]]
        return " | ".join(shown + (["…"] if len(enum) > MAX_ENUM else []))
    ref = schema.get("$ref")
    if isinstance(ref, str):
        last = ref.rstrip("/").rsplit("/", 1)[-1] or "object"
        return "".join(char if char.isalnum() or char == "_" else "_" for char in last[:40])
    for key in ("anyOf", "oneOf"):
        members = schema.get(key)
        if isinstance(members, list) and members:
            parts = list(dict.fromkeys(_type(member, depth) for member in members[:MAX_ENUM]))
            return " | ".join(parts + (["…"] if len(members) > MAX_ENUM else []))
    kind = schema.get("type")
    kinds = (
        [kind] if isinstance(kind, str) else [k for k in kind if isinstance(k, str)] if isinstance(kind, list) else []
    )
    if not kinds:
        if isinstance(schema.get("properties"), Mapping):
            kinds = ["object"]
        elif "items" in schema:
            kinds = ["array"]
    parts = []
    for name in dict.fromkeys(kinds):
        if name == "object":
            parts.append(_object(schema, depth))
        elif name == "array":
            item = _type(schema.get("items", True), depth + 1)
            parts.append(f"({item})[]" if " " in item and not item.startswith("{") else f"{item}[]")
        else:
            parts.append(_PRIMITIVES.get(name, "unknown"))
    return " | ".join(parts) if parts else "unknown"


def _object(schema: Mapping[str, object], depth: int) -> str:
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return "object"
    if depth > MAX_DEPTH:
        return "{…}"
    required_list = schema.get("required")
    required = set(required_list) if isinstance(required_list, list) else set()
    members = []
    for key, sub in itertools.islice(properties.items(), MAX_MEMBERS):
        optional = "" if key in required else "?"
        members.append(f"{property_key(str(key)[:64])}{optional}: {_type(sub, depth + 1)}")
    if len(properties) > MAX_MEMBERS:
        members.append("…")
    return "{" + ", ".join(members) + "}"


def _literal(value: object) -> str:
    if isinstance(value, str):
        return quote(value[:40])
    if value is None or isinstance(value, bool | int | float):
        return "null" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return "unknown"
