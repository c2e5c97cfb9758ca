"""What the host knows of one upstream tool (:class:`ToolInfo`), and how sandbox code names it.

Upstream servers are not trusted: every field of a tool definition may be missing, of the wrong type, huge or
deeply nested. :meth:`ToolInfo.from_mcp` keeps whatever it is given as plain data, and the functions here
never raise on it.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import mcp_types

__all__ = ["ToolInfo", "call_expression", "is_identifier", "json_preview", "quote"]

# ECMAScript reserved words, plus the literals and the words reserved in strict mode or in modules. After a
# dot they would be legal (`tools.fs.delete`), but bracket form reads unambiguously to a model and to any
# tool that re-parses the expression.
_RESERVED = (
    "await break case catch class const continue debugger default delete do else enum export extends false "
    "finally for function if implements import in instanceof interface let new null package private protected "
    "public return static super switch this throw true try typeof var void while with yield"
)
RESERVED_WORDS = frozenset(_RESERVED.split())

_SURROGATE = re.compile("[\ud800-\udfff]")
_LINE_SEPARATORS = re.compile("[\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class ToolInfo:
    """One tool of one upstream server, as plain data.

    Attributes:
        server: The name the host gives the upstream server (the ``<server>`` in ``tools.<server>.<tool>``).
        name: The tool's name as the upstream publishes it.
        title: Display name, from ``title`` or else ``annotations.title``.
        description: The tool's description, if any.
        input_schema: The ``inputSchema``, any JSON value (None when absent).
        output_schema: The ``outputSchema``, any JSON value (None when absent).
        annotations: The annotations with their wire (camelCase) names, e.g. ``{"readOnlyHint": True}``.
    """

    server: str
    name: str
    title: str | None = None
    description: str | None = None
    input_schema: object = None
    output_schema: object = None
    annotations: Mapping[str, object] = field(default_factory=dict)
    access: str = "call"
    """What the user's policy lets code do with it: ``call``, ``confirm`` (asks the user first) or ``refuse``."""

    @classmethod
    def from_mcp(cls, server: str, tool: mcp_types.Tool | Mapping[str, Any], access: str = "call") -> ToolInfo:
        """The info of ``tool``, given as the SDK's ``Tool`` or as the wire dict of a ``tools/list`` entry."""
        if isinstance(tool, mcp_types.Tool):
            annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
            return cls(
                server=server,
                name=tool.name,
                title=tool.title or _text_or_none(annotations.get("title")),
                description=tool.description,
                input_schema=tool.input_schema,
                output_schema=tool.output_schema,
                annotations=annotations,
                access=access,
            )
        wire: Mapping[str, Any] = tool if isinstance(tool, Mapping) else {}
        raw = wire.get("annotations")
        notes = {str(k): v for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        get = wire.get
        return cls(
            server=server,
            name=str(get("name") or ""),
            title=_text_or_none(get("title")) or _text_or_none(notes.get("title")),
            description=_text_or_none(get("description")),
            input_schema=get("inputSchema") if "inputSchema" in wire else get("input_schema"),
            output_schema=get("outputSchema") if "outputSchema" in wire else get("output_schema"),
            annotations=notes,
            access=access,
        )

    @property
    def call(self) -> str:
        """How sandbox code calls this tool: ``tools.github.search_issues``."""
        return call_expression(self.server, self.name)

    @property
    def distinct_title(self) -> str:
        """The title, unless it only spells the name again (``Create Entities`` for ``create_entities``); or ""."""
        letters = [re.sub(r"[^0-9a-z]", "", text.lower()) for text in (self.title or "", self.name)]
        return "" if letters[0] == letters[1] else self.title or ""


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def is_identifier(name: str) -> bool:
    """Whether ``name`` can follow a dot in JavaScript without quoting: an identifier and no reserved word.

    Python's identifiers (Unicode XID_Start / XID_Continue) are a subset of JavaScript's (ID_Start /
    ID_Continue); ``$`` is added. A name JavaScript would accept but Python would not is merely quoted.
    """
    if not name or name in RESERVED_WORDS:
        return False
    return name.replace("$", "_").isidentifier()


def quote(text: str) -> str:
    """``text`` as a JavaScript string literal (JSON escaping), safe to put in any source or comment."""
    literal = json.dumps(text, ensure_ascii=False)
    # Lone surrogates cannot be encoded as UTF-8 later; U+2028/9 end lines in comments; "*\/" is the same
    # string as "*/" but cannot end the comment a literal is quoted in.
    literal = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", literal)
    return _LINE_SEPARATORS.sub(lambda m: f"\\u{ord(m.group()):04x}", literal).replace("*/", "*\\/")


def call_expression(server: str, tool: str) -> str:
    """The JavaScript expression for a tool: ``tools.github.search_issues`` or ``tools["my-server"]["get-item"]``."""
    return "tools" + "".join(f".{part}" if is_identifier(part) else f"[{quote(part)}]" for part in (server, tool))


def json_preview(value: object, limit: int = 80) -> str:
    """A JSON rendering of ``value`` at most about ``limit`` characters long, ``…`` marking a cut.

    Bounded work whatever the value: long strings, long arrays and deep nesting are cut before rendering.
    """
    text = _preview(value, limit, 4)
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "…"


def _preview(value: object, limit: int, depth: int) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        text = repr(value) if isinstance(value, float) else str(value) if abs(value) < 10**30 else "1e30+"
        return {"inf": "Infinity", "-inf": "-Infinity", "nan": "NaN"}.get(text, text)
    if isinstance(value, str):
        return quote(value[:limit] + ("…" if len(value) > limit else ""))
    if not isinstance(value, Mapping | list | tuple):
        return quote(type(value).__name__)
    if depth <= 0:
        return "{…}" if isinstance(value, Mapping) else "[…]"
    parts: list[str] = []
    size = 0
    items = list(itertools.islice(value.items() if isinstance(value, Mapping) else value, limit))
    for item in items:
        if size > limit:
            parts.append("…")
            break
        if isinstance(value, Mapping):
            key, inner = item
            part = f"{quote(str(key)[:limit])}: {_preview(inner, limit - size, depth - 1)}"
        else:
            part = _preview(item, limit - size, depth - 1)
        parts.append(part)
        size += len(part) + 2
    else:
        if len(value) > len(items):
            parts.append("…")
    return ("{" + ", ".join(parts) + "}") if isinstance(value, Mapping) else ("[" + ", ".join(parts) + "]")
