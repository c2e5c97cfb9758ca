"""The upstream tools as code sees them at this moment: which servers answer, which of their tools each exposes,
what each call may do, the checks of their schemas, and what ``execute_js_with_tools`` says about them.

Everything is read from the live connections each time it is asked for, so a server that lists new tools (or comes
back after failing) changes the next execution's ``tools`` and the next ``tools/list``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import mcp_types as types

from sandbox_server.upstream.catalog import ToolInfo
from sandbox_server.upstream.config import safe_url
from sandbox_server.upstream.connection import Upstream
from sandbox_server.upstream.group import Upstreams
from sandbox_server.upstream.policy import Decision, ServerTools, combined_annotations, decide
from sandbox_server.upstream.schemas import SchemaCheck
from sandbox_server.upstream.search import call_expression
from sandbox_server.upstream.shared_types import name_repeated
from sandbox_server.upstream.signatures import signature
from sandbox_server.upstream.typescript import function_name

__all__ = ["LISTED_TOOLS", "SIGNATURES_BUDGET_CHARS", "Directory", "Found", "public_reason"]

SIGNATURES_BUDGET_CHARS = 3_000
"""While every signature fits in this many characters (about 750 tokens), the description lists each tool's compact
signature, so that code can call a tool without a ``tools.$describe`` turn first; past it, names. Measured against
real servers (``python -m benchmarks --only real_tokens``, docs/code-mode.md): past about this size, names and one
``$describe`` turn of the tools a task uses cost fewer tokens than every signature."""
LISTED_TOOLS = 60
"""Past this many callable tools, the description lists servers with their counts instead of tool names."""
MAX_REASON_CHARS = 200


@dataclass(frozen=True, slots=True)
class Found:
    """An exposed tool, looked up by name, and what a call of it may do."""

    upstream: Upstream
    tool: types.Tool
    decision: Decision


class Directory:
    """The view of ``upstreams`` that ``execute_js_with_tools`` works from."""

    def __init__(self, upstreams: Upstreams) -> None:
        self.upstreams = upstreams
        self._checks: dict[tuple[str, str, str], SchemaCheck | None] = {}
        # The check last found for each (server, tool, which), with the schema object it was found for: a listing
        # that has not changed hands over the same objects, so most calls find their check without writing the
        # schema out as the key of _checks.
        self._recent: dict[tuple[str, str, str], tuple[Any, SchemaCheck | None]] = {}

    def exposed(self, upstream: Upstream) -> list[types.Tool] | None:
        """The tools ``upstream`` lets code see (its ``tools`` patterns), or None while they are unknown."""
        if upstream.state != "ready" and not upstream.tools:
            return None
        return [tool for tool in upstream.tools if upstream.config.exposes(tool.name)]

    def server_tools(self) -> list[ServerTools]:
        """Each server's policy and exposed tools."""
        return [ServerTools(upstream.config, self.exposed(upstream)) for upstream in self.upstreams]

    def annotations(self) -> types.ToolAnnotations:
        """What ``execute_js_with_tools`` may claim, from what its code can call now."""
        return combined_annotations(self.server_tools())

    def manifest(self) -> dict[str, Any]:
        """What the global ``tools`` lists (see ``js_runtime/tools.js``)."""
        servers = []
        for upstream in self.upstreams:
            tools = self.exposed(upstream)
            names = [tool.name for tool in tools or ()]
            servers.append(
                {
                    "name": upstream.name,
                    "tools": names,
                    "aliases": aliases(names),
                    "unavailable": None if tools is not None else public_reason(upstream),
                    "unusable": not upstream.usable,
                }
            )
        return {"servers": servers}

    def infos(self) -> list[ToolInfo]:
        """Every exposed tool, for ``tools.$search`` and ``tools.$describe``."""
        return [
            ToolInfo.from_mcp(upstream.name, tool, decide(upstream.config, tool).access)
            for upstream in self.upstreams
            for tool in self.exposed(upstream) or ()
        ]

    def find(self, server: str, name: str) -> Found | str:
        """The exposed tool ``name`` of ``server`` with its decision, or why there is none (a sentence)."""
        if server not in self.upstreams.names():
            return f"there is no server named {server!r}; the servers are: {', '.join(self.upstreams.names())}"
        upstream = self.upstreams[server]
        tools = self.exposed(upstream)
        if tools is None:
            wait = upstream.retry_in()
            later = f" (it is tried again when code calls it, in {wait:.1f} s at the earliest)" if wait > 0 else ""
            return f"server {server!r} is not available: {public_reason(upstream)}{later}"
        name = aliases([tool.name for tool in tools]).get(name, name)
        for tool in tools:
            if tool.name == name:
                return Found(upstream, tool, decide(upstream.config, tool))
        if any(tool.name == name for tool in upstream.tools):
            return f"{server}.{name} is not exposed: the upstream configuration's `tools` for {server!r} leaves it out"
        return f"server {server!r} has no tool named {name!r}; tools.$search(words) finds a tool by what it does"

    def check(self, server: str, tool: types.Tool, which: str) -> SchemaCheck | None:
        """The compiled check of ``tool``'s ``which`` schema ("input" or "output"), kept while the schema stays."""
        schema = tool.input_schema if which == "input" else tool.output_schema
        if schema is None:
            return None
        place = (server, tool.name, which)
        recent = self._recent.get(place)
        if recent is not None and recent[0] is schema:
            return recent[1]
        key = (server, tool.name + "\0" + which, json.dumps(schema, sort_keys=True, default=str))
        if key not in self._checks:
            if len(self._checks) > 4096:
                self._checks.clear()
                self._recent.clear()
            self._checks[key] = SchemaCheck.build(schema)
        check = self._checks[key]
        if len(self._recent) > 4096:
            self._recent.clear()
        self._recent[place] = (schema, check)
        return check

    def listing(self) -> str:
        """The servers and their tools for the tool's description: compact signatures while they fit
        :data:`SIGNATURES_BUDGET_CHARS`, else names (or, past :data:`LISTED_TOOLS`, counts). Tools the policy
        refuses are named apart; tools that ask the user first are marked."""
        blocks: list[tuple[str, list[tuple[ToolInfo, str]], list[str]] | str] = []
        total = 0
        for upstream in self.upstreams:
            head = _server_expression(upstream.name)
            tools = self.exposed(upstream)
            if tools is None:
                reason = public_reason(upstream)
                reason = reason if len(reason) <= MAX_REASON_CHARS else reason[: MAX_REASON_CHARS - 1] + "…"
                blocks.append(f"{head}: unavailable ({reason})")
                continue
            callable_tools, refused = [], []
            for tool in tools:
                access = decide(upstream.config, tool).access
                if access == "refuse":
                    refused.append(tool.name)
                else:
                    mark = " (asks the user first)" if access == "confirm" else ""
                    callable_tools.append((ToolInfo.from_mcp(upstream.name, tool, access), mark))
            total += len(callable_tools)
            blocks.append((head, callable_tools, refused))
        for style in ("signatures", "names", "counts"):
            if style == "names" and total > LISTED_TOOLS:
                continue
            texts = [_block(block, style) for block in blocks]
            text = "\n".join(texts if style == "counts" else _deduplicated(blocks, texts))
            if style != "signatures" or len(text) <= SIGNATURES_BUDGET_CHARS:
                return text
        return ""  # unreachable: the counts always fit


def aliases(names: list[str]) -> dict[str, str]:
    """The declared name of each tool whose real name is not an identifier (``get_sum`` for ``get-sum``), where
    that name is no other tool's: code may call either."""
    taken = set(names)
    found: dict[str, str] = {}
    for name in names:
        alias = function_name(name)
        if alias != name and alias not in taken and alias not in found:
            found[alias] = name
    return found


def _block(block: tuple[str, list[tuple[ToolInfo, str]], list[str]] | str, style: str) -> str:
    if isinstance(block, str):
        return block
    head, tools, refused = block
    tail = f"\n  refused by the user's policy: {', '.join(refused)}" if refused else ""
    if style == "counts":
        asking = sum(1 for _, mark in tools if mark)
        return f"{head}: {len(tools)} tools" + (f", {asking} ask the user first" if asking else "") + tail
    declared = {name: alias for alias, name in aliases([info.name for info, _ in tools]).items()}
    if style == "names":
        names = ", ".join(_member(declared.get(info.name, info.name)) + mark for info, mark in tools)
        return f"{head}: {names or 'no callable tools'}{tail}"
    types, lines = name_repeated([signature(info, _member(declared.get(info.name, info.name))) for info, _ in tools])
    lines = [*types, *(line + mark for line, (_, mark) in zip(lines, tools, strict=True))]
    return f"{head}:\n" + ("\n".join("  " + line for line in lines) if lines else "  (no callable tools)") + tail


def _deduplicated(blocks: list[tuple[str, list[tuple[ToolInfo, str]], list[str]] | str], texts: list[str]) -> list[str]:
    """A server whose listing is another's, word for word (the same server configured twice, over stdio and HTTP),
    named with the other instead of listed again."""
    seen: dict[str, str] = {}
    out = []
    for block, text in zip(blocks, texts, strict=True):
        if isinstance(block, str) or not block[1]:  # unavailable, or nothing callable: said as it is
            out.append(text)
            continue
        head, body = block[0], text[len(block[0]) + 1 :]
        if body in seen:
            out.append(f"{head}: the same tools as {seen[body]}")
            continue
        seen[body] = head
        out.append(text)
    return out


def _member(name: str) -> str:
    """How a tool's name follows its server in code: ``name`` or ``["get-sum"]`` (for a name that is not an
    identifier and has no declared alias)."""
    expression = call_expression("x", name)
    return expression[len("tools.x") :].removeprefix(".")


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>()]+")
_MIN_HIDDEN_LENGTH = 4
_MIN_HIDDEN_SEGMENT = 6
"""A path segment or query value this long is hidden wherever the reason quotes it; shorter ones (``mcp``, ``v1``)
are words a reason may use for something else."""


def public_reason(upstream: Upstream) -> str:
    """Why ``upstream`` is unavailable, as the running code and the model may read it: the server is named by its
    name and, over HTTP, its host; never its credentials, its command line, or its URL's path, query or user info,
    where users put tokens (a URL a library quoted is cut to ``scheme://host:port``, and the configured path and
    query are hidden wherever they appear)."""
    config = upstream.config
    reason = config.redact(upstream.reason or "it is not connected")
    reason = _URL.sub(lambda match: safe_url(match.group()), reason)
    hidden = {config.command or "", *config.args}
    if config.url:
        hidden |= _url_parts(config.url)
    for value in sorted(hidden, key=len, reverse=True):
        if len(value) >= _MIN_HIDDEN_LENGTH and value not in (config.target, safe_url(config.url or "")):
            reason = _spelled_any_way(value).sub("<configured>", reason)
    return reason


def _spelled_any_way(value: str) -> re.Pattern[str]:
    """``value`` as a pattern that also matches it with any of its characters percent-encoded, as a library may
    quote a URL."""
    parts = []
    for char in value:
        encoded = "".join(f"%{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
        parts.append(f"(?:{re.escape(char)}|{re.escape(encoded)})")
    # Whole values only: a short configured word ("exit") must not eat into the words of a reason ("exited").
    return re.compile("(?<![A-Za-z0-9])" + "".join(parts) + "(?![A-Za-z0-9])", re.IGNORECASE)


def _url_parts(url: str) -> set[str]:
    """The pieces of a URL that may carry a credential, as written and percent-decoded."""
    try:
        parts = urlsplit(url)
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        user = parts.username or ""
        password = parts.password or ""
    except ValueError:
        return {url}
    found = {url, parts.path, parts.query, parts.fragment, user, password}
    found |= {segment for segment in parts.path.split("/") if len(segment) >= _MIN_HIDDEN_SEGMENT}
    found |= {value for _, value in pairs if len(value) >= _MIN_HIDDEN_SEGMENT}
    found |= {unquote(piece) for piece in list(found)}
    return {piece for piece in found if piece and piece != "/"}


def _server_expression(server: str) -> str:
    """``tools.github`` or ``tools["my-server"]``."""
    expression = call_expression(server, "x")
    return expression[: -len(".x")] if expression.endswith(".x") else expression[: -len('["x"]')]
