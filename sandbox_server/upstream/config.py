"""The upstream config file: which other MCP servers to connect to, and what code may do with their tools.

The file is the JSON that MCP clients already use, so a user can point ``--upstream`` at the file they have::

    {"mcpServers": {"files": {"command": "npx", "args": ["-y", "some-server"], "env": {"TOKEN": "${TOKEN}"}},
                    "search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${KEY}"}}}}

VS Code's ``{"servers": {...}}`` is read too, with ``"type": "stdio" | "http" | "sse"`` (Cline's ``transportType``
and Windsurf's ``serverUrl`` as well). Keys per server that are ours: ``tools`` (names or ``fnmatch`` patterns of
the tools to expose; default all), ``disabledTools`` (names or patterns to hide), ``sideEffects`` (what to do with
a tool that may change something: ``"refuse"``, the default, ``"confirm"`` or ``"allow"``, or an object of those by
tool name or pattern, ``"*"`` for the rest) and ``timeout`` (seconds one call of the server's tools may take).
Keys of other clients that change nothing here are ignored, and named in the log.

``${VAR}``, ``${env:VAR}`` and ``${VAR:-default}`` in ``command``, ``args``, ``env``, ``cwd``, ``envFile``, ``url``
and ``headers`` are replaced from this process's environment. Values that came from there or from an ``envFile``,
and every ``env`` and ``headers`` value, are treated as secrets: :meth:`ServerConfig.redact` hides them and
``repr`` never shows them.

Only a file that cannot be read as a whole is an error (:class:`UpstreamConfigError`). An entry this server cannot
use (an unknown transport, another client's ``${input:...}``, a missing variable, a wrong value) becomes a
:class:`ServerConfig` with a ``problem``: its server is listed as unavailable with that reason, the others work.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NoReturn, cast, get_args
from urllib.parse import urlsplit

from sandbox_server.errors import ConfigurationError
from sandbox_server.upstream.entries import Entry, EntryProblem, kind_of
from sandbox_server.upstream.escapes import is_hidden, visible
from sandbox_server.upstream.itself import runs_this_server
from sandbox_server.upstream.transports import KINDS, TransportKind

__all__ = [
    "MAX_SERVER_NAME",
    "ServerConfig",
    "SideEffects",
    "UpstreamConfigError",
    "load_upstream_config",
    "parse_upstream_config",
    "unusable_name",
]

logger = logging.getLogger("sandbox_server.upstream")

SideEffects = Literal["refuse", "confirm", "allow"]

MAX_SERVER_NAME = 100
RESERVED_NAMES = frozenset({"__proto__", "constructor", "prototype", "then", "toJSON", "valueOf", "toString"})
"""Names that would reach an object's prototype machinery in JavaScript, or make ``tools`` look like a promise or
a value with its own conversion, rather than a property of our own."""

POLICY_KEYS = frozenset({"tools", "disabledTools", "sideEffects", "timeout"})
COMMON_KEYS = frozenset({"type", "transportType", "disabled", "serverUrl"})
IGNORED_KEYS = frozenset({"autoApprove", "alwaysAllow", "description", "name", "trust"})
"""Keys other clients write that change nothing here and are not worth a warning: their own approval lists (our
policy is ``sideEffects``, and an approval list of another client must not widen it), a human note."""
TRANSPORT_KEYS = frozenset().union(*(kind.keys for kind in KINDS))
MAX_TIMEOUT_S = 86_400.0


class UpstreamConfigError(ConfigurationError, ValueError):
    """The upstream config file cannot be used; the message names the file, server and key, and what is accepted."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One upstream server: how to reach it, and which of its tools code may call."""

    name: str
    transport: str
    """The kind of transport (``stdio``, ``http``, ``sse``; see ``upstream/transports``), or ``""`` when the entry
    is unusable before that could be said."""
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    tools: tuple[str, ...] | None = None
    """Names or ``fnmatch`` patterns (case-sensitive) of the tools to expose; ``None`` exposes all."""
    hidden: tuple[str, ...] = ()
    """Names or patterns of tools never exposed (``disabledTools``), whatever ``tools`` says."""
    side_effects: SideEffects = "refuse"
    """What a tool that is not read-only may do, unless ``per_tool`` names it."""
    per_tool: tuple[tuple[str, SideEffects], ...] = ()
    """``sideEffects`` given by tool name or pattern: each applies to the tools it names, read-only or not."""
    timeout_s: float | None = None
    """Seconds one call of this server's tools may take (``timeout``); None for the setting ``tool_call_timeout_s``."""
    problem: str | None = None
    """Why the entry cannot be used; such a server is never started and is listed as unavailable."""
    ignored: tuple[str, ...] = ()
    """Keys of the entry that change nothing here."""
    secrets: frozenset[str] = field(default=frozenset(), compare=False)
    """Values taken from the environment by ``${VAR}`` or from an env file; hidden wherever this config is shown."""

    def exposes(self, tool_name: str) -> bool:
        """Whether the policy lets code see and call the tool of this name."""
        if any(fnmatchcase(tool_name, pattern) for pattern in self.hidden):
            return False
        return self.tools is None or any(fnmatchcase(tool_name, pattern) for pattern in self.tools)

    def named_policy(self, tool_name: str) -> SideEffects | None:
        """The ``sideEffects`` the entry gives this tool by name (an exact name first, then the longest matching
        pattern), or None when only the default applies."""
        best: tuple[int, SideEffects] | None = None
        for pattern, access in self.per_tool:
            if pattern == tool_name:
                return access
            if fnmatchcase(tool_name, pattern) and (best is None or len(pattern) > best[0]):
                best = (len(pattern), access)
        return None if best is None else best[1]

    def redact(self, text: str) -> str:
        """``text`` with every secret this config holds (env and header values, expanded variables) hidden."""
        hidden = {*self.secrets, *self.env.values(), *self.headers.values()}
        for value in sorted((v for v in hidden if len(v) >= _MIN_SECRET_LENGTH), key=len, reverse=True):
            text = text.replace(value, "***")
        return text

    @property
    def kind(self) -> TransportKind | None:
        return next((kind for kind in KINDS if kind.name == self.transport), None)

    @property
    def target(self) -> str:
        """Where the server is, safe to log and to show: the command (no arguments) or the URL's scheme, host and port
        (its path, query and user info are left out: users put tokens in all three)."""
        if self.command is not None:
            return self.redact(self.command)
        if self.url is not None:
            return self.redact(safe_url(self.url))
        return ""

    def __repr__(self) -> str:
        parts = [f"name={self.name!r}", f"transport={self.transport!r}"]
        if self.command is not None:
            parts += [f"command={self.target!r}", f"args=<{len(self.args)} arguments>"]
            parts += [f"env=<keys {sorted(self.env)}>", f"cwd={self.cwd and self.redact(self.cwd)!r}"]
        elif self.url is not None:
            parts += [f"url={self.target!r}", f"headers=<keys {sorted(self.headers)}>"]
        parts += [f"tools={self.tools!r}", f"side_effects={self.side_effects!r}"]
        if self.per_tool:
            parts.append(f"per_tool={dict(self.per_tool)!r}")
        if self.problem is not None:
            parts.append(f"problem={self.problem!r}")
        return f"ServerConfig({', '.join(parts)})"


_MIN_SECRET_LENGTH = 4
"""Shorter values (``"1"``, ``"on"``) would blank out ordinary text wherever they occur, and guess in one try."""


def safe_url(url: str) -> str:
    """``scheme://host:port`` of a URL: its path, query, fragment and user info can carry credentials."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return "<invalid URL>"
    return f"{parts.scheme}://{host}{port}"


def load_upstream_config(path: Path) -> list[ServerConfig]:
    """Read and check the upstream config file at ``path``; every problem is an :class:`UpstreamConfigError`."""
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UpstreamConfigError(f"{source}: cannot read the upstream config file: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise UpstreamConfigError(f"{source}: the upstream config file is not UTF-8 text") from exc
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise UpstreamConfigError(
            f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    except _DuplicateKey as exc:
        raise UpstreamConfigError(f"{source}: the key {exc.args[0]!r} appears twice in one object") from exc
    return parse_upstream_config(data, source, folder=path.parent)


def parse_upstream_config(
    data: object, source: str, *, environ: Mapping[str, str] | None = None, folder: Path | None = None
) -> list[ServerConfig]:
    """Check already-parsed config ``data``; ``source`` names it in errors, ``environ`` defaults to ``os.environ``,
    ``folder`` is where relative ``envFile`` paths are read from.

    Servers with ``"disabled": true`` are left out. Top-level keys other than ``mcpServers`` and ``servers`` are
    ignored, so a client's whole settings file (``claude_desktop_config.json``) can be used as it is. An entry that
    cannot be used gives a config with its ``problem`` (logged here); only a file that holds no object of servers
    raises.
    """
    if environ is None:
        environ = os.environ
    if not isinstance(data, dict):
        _fail(source, f"the file must hold a JSON object, not {kind_of(data)}", '{"mcpServers": {...}}')
    present = [key for key in ("mcpServers", "servers") if key in data]
    if len(present) != 1:
        problem = "has both" if present else "has neither"
        _fail(source, f"the object {problem} of the keys", '"mcpServers" (or VS Code\'s "servers")')
    servers = data[present[0]]
    if not isinstance(servers, dict):
        _fail(f"{source}: key {present[0]!r}", f"must be an object of servers by name, not {kind_of(servers)}", "{}")
    configs = []
    for name, entry in servers.items():
        config = _parse_server(name, entry, environ, folder)
        if config is None:
            continue
        if config.problem is not None:
            logger.warning(
                "%s: server %s cannot be used: %s", visible(source), visible(repr(name)), visible(config.problem)
            )
        elif config.ignored:
            logger.warning(
                "%s: server %s: keys ignored here: %s",
                visible(source),
                visible(repr(name)),
                visible(", ".join(config.ignored)),
            )
        configs.append(config)
    return configs


def unusable_name(name: str) -> str | None:
    """Why ``name`` cannot name a server (code calls it as ``tools[name]``), or None."""
    if not 0 < len(name) <= MAX_SERVER_NAME:
        return f"a server name has 1 to {MAX_SERVER_NAME} characters"
    if name in RESERVED_NAMES or name.startswith(("$", "@@")):
        return "the name is reserved in JavaScript objects (__proto__, constructor, then, ...) or starts with $ or @@"
    if any(is_hidden(char) and char != " " for char in name) or name != name.strip():
        return "the name holds control, invisible or odd space characters, or starts or ends with a space"
    return None


def _parse_server(name: str, data: object, environ: Mapping[str, str], folder: Path | None) -> ServerConfig | None:
    if not isinstance(data, dict):
        return ServerConfig(name=name, transport="", problem=f"the entry must be an object, not {kind_of(data)}")
    if data.get("disabled") is True:
        return None
    entry = Entry(name, data, environ, folder)
    kind: TransportKind | None = None
    try:
        why = unusable_name(name)
        if why is not None:
            entry.fail(None, f"has an unusable server name: {why}", "printable names such as my-server or My Files")
        disabled = data.get("disabled", False)
        if not isinstance(disabled, bool):
            entry.fail("disabled", f"must be true or false, not {kind_of(disabled)}", "true, false")
        if "serverUrl" in data:
            if "url" in data:
                entry.fail("serverUrl", 'cannot be given together with "url"', 'one of "url" or "serverUrl"')
            data = {("url" if key == "serverUrl" else key): value for key, value in data.items()}
            entry.data = data
        kind = _kind(entry)
        wrong = sorted((TRANSPORT_KEYS - kind.keys) & data.keys())
        if wrong:
            entry.fail(wrong[0], f"does not apply to a {kind.name} server", ", ".join(sorted(kind.keys)))
        fields = kind.read(entry)
        itself = runs_this_server(fields["command"], fields["args"]) if kind.name == "stdio" else None
        if itself is not None:
            entry.fail(
                "command",
                f"starts this server itself ({itself}): it would start itself again as its own upstream",
                "another MCP server's command (leave this server's own entry out, or give it \"disabled\": true)",
            )
        tools, hidden, default, per_tool = _policy(entry)
        timeout = _timeout(entry)
    except EntryProblem as exc:
        return ServerConfig(
            name=name, transport=kind.name if kind else "", problem=str(exc), secrets=frozenset(entry.secrets)
        )
    known = TRANSPORT_KEYS | POLICY_KEYS | COMMON_KEYS | IGNORED_KEYS
    for key in ("env", "headers"):
        if key in fields:
            fields[key] = MappingProxyType(fields[key])
    return ServerConfig(
        name=name,
        transport=kind.name,
        tools=tools,
        hidden=hidden,
        side_effects=default,
        per_tool=per_tool,
        timeout_s=timeout,
        ignored=tuple(key for key in data if key not in known),
        secrets=frozenset(entry.secrets),
        **fields,
    )


def _kind(entry: Entry) -> TransportKind:
    declared = [(key, entry.data[key]) for key in ("type", "transportType") if key in entry]
    if "command" in entry and "url" in entry:
        entry.fail("url", 'cannot be given together with "command"', '"command" (stdio) or "url" (http, sse)')
    chosen: TransportKind | None = next((kind for kind in KINDS if kind.infer(entry)), None)
    for key, value in declared:
        named = next((kind for kind in KINDS if isinstance(value, str) and value in kind.types), None)
        if named is None:
            accepted = ", ".join(f'"{t}"' for kind in KINDS for t in kind.types)
            entry.fail(key, f"has the unknown value {visible(json.dumps(value))[:100]}", accepted)
        if chosen is not None and named.local != chosen.local:
            wanted = '"command"' if named.local else '"url"'
            entry.fail(key, f"is {value!r} but the server has no {wanted}", f"{wanted} with this type")
        chosen = named
    if chosen is None:
        entry.fail(None, "says neither how to start it nor where it is", '"command" (stdio) or "url" (http, sse)')
    return chosen


def _policy(
    entry: Entry,
) -> tuple[tuple[str, ...] | None, tuple[str, ...], SideEffects, tuple[tuple[str, SideEffects], ...]]:
    tools: tuple[str, ...] | None = None
    if "tools" in entry:
        patterns = entry.strings("tools")
        if any(not pattern for pattern in patterns):
            entry.fail("tools", "contains an empty name", 'tool names or patterns such as "get_*"')
        tools = tuple(patterns)
    hidden = tuple(entry.strings("disabledTools"))
    accepted = get_args(SideEffects)
    words = ", ".join(f'"{a}"' for a in accepted)
    value = entry.data.get("sideEffects", "refuse")
    if isinstance(value, dict):
        per_tool: list[tuple[str, SideEffects]] = []
        default: SideEffects = "refuse"
        for pattern, access in value.items():
            if access not in accepted or not pattern:
                entry.fail(
                    "sideEffects",
                    f"gives {visible(repr(pattern))[:100]} the value {visible(json.dumps(access))[:60]}",
                    f'tool names or patterns ("*" for the rest) with {words}',
                )
            if pattern == "*":
                default = cast(SideEffects, access)
            else:
                per_tool.append((pattern, cast(SideEffects, access)))
        return tools, hidden, default, tuple(per_tool)
    if value not in accepted:
        entry.fail(
            "sideEffects", f"has the value {visible(json.dumps(value))[:60]}", f"{words}, or an object of them by tool"
        )
    return tools, hidden, cast(SideEffects, value), ()


def _timeout(entry: Entry) -> float | None:
    value = entry.data.get("timeout")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_TIMEOUT_S:
        entry.fail(
            "timeout",
            f"is {visible(json.dumps(value))[:60]}",
            f"seconds, a number above 0 and at most {MAX_TIMEOUT_S:g}",
        )
    return float(value)


def _fail(where: str, problem: str, accepted: str) -> NoReturn:
    raise UpstreamConfigError(f"{where} {problem}; accepted: {accepted}")


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Refuse a key given twice: JSON parsers keep the last silently, and a server or a header would vanish."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result
