"""TypeScript declarations of upstream tools, made from their JSON Schemas, for a language model to read.

``declaration(tool)`` is what ``tools.$describe(name)`` answers; ``declarations(tools)`` is one file for a
server's tools, served as a resource. Schemas come from upstream servers and are not trusted: any JSON value is
accepted, nothing here raises on one, and the output is bounded (nesting depth, enum and property counts,
total size, each cut marked in a ``/* … */`` comment). Local ``$ref`` targets (``#/$defs/X``,
``#/definitions/X``, any ``#/`` pointer) become named ``type`` aliases, so recursive schemas terminate; other
references become ``unknown`` with a note. Keywords that TypeScript cannot express (bounds, formats, patterns,
defaults) are noted in the doc comment of the property they constrain.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from sandbox_server.upstream.catalog import ToolInfo, json_preview, quote
from sandbox_server.upstream.signatures import CONTENT_RESULT, result_type
from sandbox_server.upstream.typescript import (
    array_of,
    comment_text,
    doc_comment,
    function_name,
    intersection,
    object_body,
    parenthesized,
    property_key,
    type_name,
    union,
)

__all__ = [
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MAX_FILE_CHARS",
    "RESULT_WITHOUT_SCHEMA",
    "TOOL_CONTENT",
    "declaration",
    "declarations",
    "type_of",
]

DEFAULT_MAX_CHARS = 16_000
"""One tool's declaration (about 4,000 tokens); past it, remaining types show as ``unknown``."""
DEFAULT_MAX_FILE_CHARS = 200_000
"""A whole server's file; tools past it are named in a closing comment instead."""
MAX_DEPTH = 24
MAX_ENUM = 25
MAX_MEMBERS = 100
"""Properties of one object, members of one union, elements of one tuple or literal."""
MAX_DOC = 600
MAX_TOOL_DOC = 2_000
MAX_LITERAL = 200
RESULT_WITHOUT_SCHEMA = (
    "A tool without an output schema resolves to its text (a JSON object or array in one text block comes parsed), "
    "or, for images, audio and resources, to ToolContent; every result has .content, its MCP content blocks."
)
"""What a tool without an outputSchema returns in the sandbox: said once in the tool's description, not per tool."""
TOOL_CONTENT = (
    'type ToolContent = { content: ({ type: "text"; text: string } | { type: "image" | "audio"; data: string; '
    'mimeType: string } | { type: "resource_link"; uri: string; name?: string; mimeType?: string } | { type: '
    '"resource"; resource: { uri: string; mimeType?: string; text?: string; blob?: string } })[]; text: string };'
)
"""The result type of a tool whose results are not text alone (images, audio, resources)."""
_ACCESS_NOTES = {"confirm": "asks the user before each call", "refuse": "refused by the user's policy"}

_NOTES = (
    "default format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf minLength maxLength pattern "
    "minItems maxItems minProperties maxProperties"
)
_NOTE_KEYWORDS = _NOTES.split()


def declaration(tool: ToolInfo, *, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """The declaration of one tool: a doc comment, ``declare function``, then the type aliases it uses."""
    writer = _Writer(_Aliases())
    return writer.tool(tool, function_name(tool.name), max_chars)


def declarations(
    tools: Sequence[ToolInfo], *, max_chars: int = DEFAULT_MAX_CHARS, max_file_chars: int = DEFAULT_MAX_FILE_CHARS
) -> str:
    """One TypeScript file declaring ``tools``; a ``$defs`` entry identical in several tools is declared once."""
    writer = _Writer(_Aliases())
    servers = sorted({tool.server for tool in tools})
    head = ", ".join(quote(server) for server in servers[:MAX_ENUM]) + (", …" if len(servers) > MAX_ENUM else "")
    parts = [f"/* Tools of the MCP server{'s' if len(servers) != 1 else ''} {head}: {len(tools)} in all. */"]
    size = len(parts[0])
    functions: set[str] = set()
    for index, tool in enumerate(tools):
        base = name = function_name(tool.name)
        for count in itertools.count(2):
            if name not in functions:
                break
            name = f"{base}_{count}"
        functions.add(name)
        text = writer.tool(tool, name, max_chars)
        if size + len(text) + 100 > max_file_chars:  # room for the closing note
            rest = len(tools) - index
            parts.append(
                f"/* … {rest} more tool{'s' if rest != 1 else ''} not shown: the file is at its size limit. */"
            )
            break
        parts.append(text)
        size += len(text) + 2
    return "\n\n".join(parts) + "\n"


def type_of(schema: object, *, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """One TypeScript type expression for ``schema``; local ``$ref`` targets are written out in place."""
    writer = _Writer(None, budget=max_chars)
    writer.document = schema
    text = writer.type(schema, "", 1)
    return text + " /* … truncated */" if writer.truncated else text


@dataclass
class _Aliases:
    """The type aliases of one output, shared by its tools so that the same definition gets one name."""

    by_key: dict[object, str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    pending: list[tuple[str, object, str, object]] = field(default_factory=list)
    """(name, document, name of the document's root, target schema) of aliases named but not yet written."""

    direct: dict[str, set[str]] = field(default_factory=dict)
    """The aliases each alias names outside any object or array type of its own."""

    def reaches(self, start: str, goal: str) -> bool:
        seen, stack = set(), [start]
        while stack:
            name = stack.pop()
            if name == goal:
                return True
            if name not in seen:
                seen.add(name)
                stack.extend(self.direct.get(name, ()))
        return False

    def name(self, key: object, base: str, document: object, root_name: str, target: object) -> str:
        if key in self.by_key:
            return self.by_key[key]
        name = base
        for count in itertools.count(2):
            if name not in self.taken:
                break
            name = f"{base}_{count}"
        self.by_key[key] = name
        self.taken.add(name)
        self.pending.append((name, document, root_name, target))
        return name


class _Writer:
    """Renders schemas as TypeScript types, spending a character budget; ``aliases`` None inlines references."""

    def __init__(self, aliases: _Aliases | None, budget: int = DEFAULT_MAX_CHARS) -> None:
        self.aliases = aliases
        self.budget = budget
        self.truncated = False
        self.document: object = None
        self.root_name = "Root"
        self.inlining: list[str] = []
        self.alias: str | None = None
        """The alias being written, if any, and how many object or array types into it the writer is."""
        self.structure = 0
        self.said: set[tuple[str, str]] = set()  # (property, doc) pairs the declaration being written documented
        self.closures: dict[tuple[int, str], frozenset[tuple[str, str]] | None] = {}

    def tool(self, tool: ToolInfo, name: str, max_chars: int) -> str:
        self.budget, self.truncated, self.said = max_chars, False, set()
        pascal = "".join(word[:1].upper() + word[1:] for word in re.split(r"[^0-9A-Za-z]+", tool.name) if word)
        self.document, self.root_name = tool.input_schema, type_name(pascal + "Args")
        args = self.type(tool.input_schema, "", 1) if tool.input_schema is not None else "Record<string, unknown>"
        self.document, self.root_name = tool.output_schema, type_name(pascal + "Result")
        result = (
            self.type(tool.output_schema, "", 1) if tool.output_schema is not None else result_type(tool, compact=False)
        )
        hints = [word for key, word in _HINTS if tool.annotations.get(key) is True]
        if tool.access in _ACCESS_NOTES:
            hints.append(_ACCESS_NOTES[tool.access])
        lines = [tool.distinct_title, comment_text(tool.description or "", MAX_TOOL_DOC)]
        lines.append(f"{tool.call}(args)" + (f": {', '.join(hints)}" if hints else ""))
        doc = doc_comment("\n".join(line for line in lines if line), "", MAX_TOOL_DOC + 400)
        optional = "?" if _args_optional(tool.input_schema) else ""
        text = f"{doc}declare function {name}(args{optional}: {args}): Promise<{result}>;"
        if self.aliases is not None:
            while self.aliases.pending:
                alias, self.document, self.root_name, target = self.aliases.pending.pop(0)
                self.alias, self.structure = alias, 0
                body = self.type(target, "", 1)
                self.alias = None
                text += f"\n{doc_comment(_schema_doc(target), '', MAX_DOC)}type {alias} = {body};"
        if result == CONTENT_RESULT and self.aliases is not None and "ToolContent" not in self.aliases.taken:
            self.aliases.taken.add("ToolContent")
            text += "\n" + TOOL_CONTENT
        if self.truncated:
            text += "\n/* … truncated: the schemas are larger than this declaration shows; `unknown` marks cuts. */"
        if len(text) > 2 * max_chars + 2_000:  # only formatting overhead can get here: a deep, wide schema
            text = f"/** Call: await {tool.call}(args) */\ndeclare function {name}(args?: unknown): Promise<unknown>;"
            text += "\n/* … the schemas are too large to declare. */"
        return text

    def type(self, schema: object, indent: str, depth: int) -> str:
        self.budget -= 8
        if self.budget <= 0 or depth > MAX_DEPTH:
            self.truncated = True
            return "unknown"
        if schema is True or not isinstance(schema, Mapping):
            return "never" if schema is False else "unknown"
        parts: list[str] = []
        if "$ref" in schema:
            parts.append(self._reference(schema["$ref"], indent, depth))
        parts.extend(f"unknown /* {key} not followed */" for key in ("$dynamicRef", "$recursiveRef") if key in schema)
        if "const" in schema:
            parts.append(self._literal(schema["const"], depth))
        elif isinstance(schema.get("enum"), list):
            parts.append(self._enum(schema["enum"]))
        else:
            parts.extend(self._own(schema, indent, depth))
        for key in ("anyOf", "oneOf"):
            members = schema.get(key)
            if isinstance(members, list) and members:
                parts.append(union([self.type(member, indent, depth + 1) for member in members[:MAX_MEMBERS]]))
        if isinstance(schema.get("allOf"), list):
            parts.extend(self.type(member, indent, depth + 1) for member in schema["allOf"][:MAX_MEMBERS])
        text = intersection(parts)
        return union([text, "null"]) if schema.get("nullable") is True and text != "unknown" else text

    def _own(self, schema: Mapping[str, object], indent: str, depth: int) -> list[str]:
        kind = schema.get("type")
        kinds = (
            [kind]
            if isinstance(kind, str)
            else [k for k in kind if isinstance(k, str)]
            if isinstance(kind, list)
            else []
        )
        if not isinstance(kind, str | list):
            if any(key in schema for key in ("properties", "additionalProperties", "patternProperties", "required")):
                kinds.append("object")
            if any(key in schema for key in ("items", "prefixItems")):
                kinds.append("array")
        if not kinds:
            return []
        members = []
        for name in dict.fromkeys(kinds):
            if name in ("object", "array"):
                self.structure += 1
                members.append((self._object if name == "object" else self._array)(schema, indent, depth))
                self.structure -= 1
            else:
                members.append(_PRIMITIVES.get(name, "unknown"))
        return [union(members)]

    def _object(self, schema: Mapping[str, object], indent: str, depth: int) -> str:
        properties = schema.get("properties")
        properties = properties if isinstance(properties, Mapping) else {}
        required_list = schema.get("required")
        required = (
            {name for name in required_list if isinstance(name, str)} if isinstance(required_list, list) else set()
        )
        inner = indent + "  "
        members: list[tuple[str, str]] = []
        for key, sub in itertools.islice(properties.items(), MAX_MEMBERS):
            name = str(key)
            doc = _schema_doc(sub)
            doc = "" if (name, doc) in self.said else doc  # a result repeating its arguments' docs: said once
            self.said.add((name, doc))
            self.budget -= len(name) + len(doc)
            optional = "" if name in required else "?"
            members.append((doc, f"{property_key(name)}{optional}: {self.type(sub, inner, depth + 1)}"))
        if len(properties) > MAX_MEMBERS:
            members.append(("", f"/* … {len(properties) - MAX_MEMBERS} more properties */"))
        index: list[str] = []
        patterns = schema.get("patternProperties")
        if isinstance(patterns, Mapping):
            index.extend(self.type(sub, inner, depth + 1) for sub in itertools.islice(patterns.values(), MAX_MEMBERS))
        extra = schema.get("additionalProperties")
        if extra is not None and extra is not True and extra is not False and extra != {}:
            index.append(self.type(extra, inner, depth + 1))
        values = union(index) if index else "never" if extra is False else "unknown"
        # An index signature, unlike Record<>, may refer to the alias it is in (JSON-like recursive values).
        record = f"Record<string, {values}>" if values in ("unknown", "never") else f"{{ [key: string]: {values} }}"
        if not members:
            return record
        body = object_body(members, indent)
        return f"{body} & {record}" if values not in ("unknown", "never") else body

    def _array(self, schema: Mapping[str, object], indent: str, depth: int) -> str:
        items, prefix = schema.get("items"), schema.get("prefixItems")
        if isinstance(items, list):  # draft-07 tuples
            prefix, rest = items, schema.get("additionalItems", True)
        elif isinstance(prefix, list):
            rest = schema.get("items", True)
        else:
            return array_of(self.type(schema.get("items", True), indent, depth + 1))
        minimum = schema.get("minItems")
        minimum = minimum if isinstance(minimum, int) and not isinstance(minimum, bool) else 0
        elements = []
        for position, sub in enumerate(prefix[:MAX_MEMBERS]):
            text = self.type(sub, indent, depth + 1)
            elements.append(text if position < minimum else f"{parenthesized(text, '|&')}?")
        if len(prefix) > MAX_MEMBERS:
            rest = True
        if rest is not False:
            elements.append("..." + array_of(self.type(rest, indent, depth + 1)))
        return "[" + ", ".join(elements) + "]"

    def _reference(self, ref: object, indent: str, depth: int) -> str:
        found = _resolve(self.document, ref) if isinstance(ref, str) else None
        if found is None:
            return f"unknown /* $ref {comment_text(json_preview(ref, 80), 100)} not followed */"
        pointer, target = found
        if self.aliases is None:
            if pointer in self.inlining or len(self.inlining) > MAX_DEPTH:
                return "unknown /* recursive */"
            self.inlining.append(pointer)
            try:
                return self.type(target, indent, depth + 1)
            finally:
                self.inlining.pop()
        segments = [part for part in pointer.split("/") if part and not part.isdigit()]
        last = segments[-1] if segments else ""
        base = self.root_name if not pointer else type_name(last[:1].upper() + last[1:])
        memo = (id(self.document), pointer)
        if memo not in self.closures:
            self.closures[memo] = _closure(self.document, pointer, target)
        closure = self.closures[memo]
        key = (base, pointer, closure if closure is not None else id(self.document))
        name = self.aliases.name(key, base, self.document, self.root_name, target)
        if self.alias is not None and self.structure == 0:
            # TypeScript resolves an alias's own union and intersection members eagerly: one that comes back to
            # the alias without passing through an object or array type is an error, so that edge is cut.
            if self.aliases.reaches(name, self.alias):
                return "unknown /* recursive */"
            self.aliases.direct.setdefault(self.alias, set()).add(name)
        return name

    def _literal(self, value: object, depth: int) -> str:
        self.budget -= 8
        if value is None or isinstance(value, bool):
            return json.dumps(value)
        if isinstance(value, str):
            self.budget -= len(value)
            return quote(value) if len(value) <= MAX_LITERAL else "string"
        if isinstance(value, int):
            return str(value) if abs(value) < 2**53 else "number"
        if isinstance(value, float):
            return repr(value) if value == value and abs(value) != float("inf") else "number"
        if depth > MAX_DEPTH or self.budget <= 0 or not isinstance(value, Mapping | list):
            return "unknown"
        if isinstance(value, list):
            return "[" + ", ".join(self._literal(item, depth + 1) for item in value[:MAX_MEMBERS]) + "]"
        members = [(str(k), self._literal(v, depth + 1)) for k, v in itertools.islice(value.items(), MAX_MEMBERS)]
        return "{ " + "; ".join(f"{property_key(k)}: {v}" for k, v in members) + " }" if members else "{}"

    def _enum(self, values: list[object]) -> str:
        shown = union([self._literal(value, MAX_DEPTH) for value in values[:MAX_ENUM]]) if values else "never"
        if len(values) <= MAX_ENUM:
            return shown
        kinds = {_PRIMITIVES.get(_json_type(value), "unknown") for value in itertools.islice(values, MAX_ENUM, 1_000)}
        return f"{union([shown, *sorted(kinds)])} /* … {len(values) - MAX_ENUM} more values */"


_PRIMITIVES = {"string": "string", "number": "number", "integer": "number", "boolean": "boolean", "null": "null"}
_HINTS = (("readOnlyHint", "read-only"), ("destructiveHint", "destructive"), ("idempotentHint", "idempotent"))


def _json_type(value: object) -> str:
    kinds = ((bool, "boolean"), (int | float, "number"), (str, "string"), (type(None), "null"), (list, "array"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "object")


def _schema_doc(schema: object) -> str:
    """The description of ``schema`` and notes on what its type cannot say (default, bounds, format)."""
    if not isinstance(schema, Mapping):
        return ""
    description = schema.get("description")
    text = description.strip() if isinstance(description, str) else ""
    # Patterns and formats read best raw (a JSON-quoted pattern doubles its backslashes).
    notes = [
        f"{key} {value[:60] if isinstance(value, str) and key in ('pattern', 'format') else json_preview(value, 60)}"
        for key in _NOTE_KEYWORDS
        if key in schema and (value := schema[key]) is not None
    ]
    if schema.get("deprecated") is True:
        notes.append("deprecated")
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        notes.append(f"example {json_preview(examples[0], 60)}")
    if notes:
        text = comment_text(text, MAX_DOC)
        text = f"{text.rstrip('.')} ({', '.join(notes)})." if text else f"{', '.join(notes)}."
    return text


def _args_optional(schema: object) -> bool:
    if schema is None or schema is True:
        return True
    if not isinstance(schema, Mapping) or any(key in schema for key in ("$ref", "allOf", "anyOf", "oneOf")):
        return False
    return not schema.get("required") and schema.get("type", "object") == "object"


def _resolve(document: object, ref: str) -> tuple[str, object] | None:
    """The JSON pointer and target of a local ``$ref`` (also one prefixed by the root ``$id``), or None."""
    root_id = document.get("$id") if isinstance(document, Mapping) else None
    if isinstance(root_id, str) and root_id and ref.startswith(root_id.rstrip("#") + "#"):
        ref = ref[len(root_id.rstrip("#")) :]
    if not ref.startswith("#"):
        return None
    pointer = unquote(ref[1:])
    if pointer and not pointer.startswith("/"):
        return None
    node = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return pointer, node


def _closure(document: object, pointer: str, target: object) -> frozenset[tuple[str, str]] | None:
    """The (pointer, canonical JSON) of ``target`` and every local definition it reaches: equal closures in two
    tools declare the same types. None when a schema is not plain JSON or is too large to compare."""
    found: dict[str, str] = {}
    queue = [(pointer, target)]
    while queue and len(found) <= MAX_MEMBERS:
        where, schema = queue.pop()
        if where in found:
            continue
        try:
            found[where] = json.dumps(schema, sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            return None
        if len(found[where]) > 200_000:
            return None
        for ref in re.findall(r'"\$ref": ("(?:[^"\\]|\\.)*")', found[where]):
            resolved = _resolve(document, json.loads(ref))
            if resolved is not None:
                queue.append(resolved)
    return frozenset(found.items()) if not queue else None
