"""The upstream config file: which other MCP servers to connect to, and what code may do with their tools.

The file is the JSON that MCP clients already use, so a user can point ``--upstream`` at the file they have::

    {"mcpServers": {"files": {"command": "npx", "args": ["-y", "some-server"], "env": {"TOKEN": "${TOKEN}"}},
                    "search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${KEY}"}}}}

VS Code's ``{"servers": {...}}`` with ``"type": "stdio" | "http"`` is read too. Two keys per server are ours:
``tools`` (names or ``fnmatch`` patterns of the tools to expose; default all) and ``sideEffects`` (what to do
with a tool that may change something: ``"refuse"``, the default, ``"confirm"`` or ``"allow"``).

``${VAR}``, ``${env:VAR}`` and ``${VAR:-default}`` in ``command``, ``args``, ``env``, ``cwd``, ``url`` and
``headers`` are replaced from this process's environment. Values that came from there, and every ``env`` and
``headers`` value, are treated as secrets: :meth:`ServerConfig.redact` hides them and ``repr`` never shows them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, NoReturn, cast, get_args
from urllib.parse import urlsplit

from sandbox_server.errors import ConfigurationError

__all__ = [
    "SERVER_NAME_PATTERN",
    "ServerConfig",
    "SideEffects",
    "UpstreamConfigError",
    "load_upstream_config",
    "parse_upstream_config",
]

SideEffects = Literal["refuse", "confirm", "allow"]
Transport = Literal["stdio", "http"]

SERVER_NAME_PATTERN = re.compile(r"[A-Za-z0-9_.-]{1,64}")
"""A server name is a key of the JavaScript ``tools`` object: ``tools.files`` or ``tools["my-server"]``."""
RESERVED_NAMES = frozenset({"__proto__", "constructor", "prototype"})
"""Names that would reach an object's prototype machinery in JavaScript rather than a property of our own."""

STDIO_KEYS = frozenset({"command", "args", "env", "cwd"})
HTTP_KEYS = frozenset({"url", "headers"})
POLICY_KEYS = frozenset({"tools", "sideEffects"})
COMMON_KEYS = frozenset({"type", "transportType", "disabled"})
IGNORED_KEYS = frozenset({"timeout", "autoApprove", "alwaysAllow", "description"})
"""Keys other clients write that change nothing here: their own timeouts, their own approval lists (our policy
is ``sideEffects``, and an approval list of another client must not widen it), a human note."""
ACCEPTED_KEYS = STDIO_KEYS | HTTP_KEYS | POLICY_KEYS | COMMON_KEYS | IGNORED_KEYS
REFUSED_KEYS = {
    "disabledTools": 'list the tools to expose in "tools" instead',
    "envFile": 'put the variables in "env" (values may be ${VAR} from this process\'s environment)',
    "serverUrl": 'use "url"',
}
"""Keys a reader might expect to work that we do not honour; ignoring them could expose or break something."""
TRANSPORT_TYPES: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamableHttp": "http",
}
_VARIABLE = re.compile(r"\$\{([^}]*)\}")
_MIN_SECRET_LENGTH = 4
"""Shorter values (``"1"``, ``"on"``) would blank out ordinary text wherever they occur, and guess in one try."""


class UpstreamConfigError(ConfigurationError, ValueError):
    """The upstream config file cannot be used; the message names the file, server and key, and what is accepted."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One upstream server: how to reach it, and which of its tools code may call."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    tools: tuple[str, ...] | None = None
    """Names or ``fnmatch`` patterns (case-sensitive) of the tools to expose; ``None`` exposes all."""
    side_effects: SideEffects = "refuse"
    secrets: frozenset[str] = field(default=frozenset(), compare=False)
    """Values taken from the environment by ``${VAR}``; hidden wherever this config is shown."""

    def exposes(self, tool_name: str) -> bool:
        """Whether the policy lets code see and call the tool of this name."""
        return self.tools is None or any(fnmatchcase(tool_name, pattern) for pattern in self.tools)

    def redact(self, text: str) -> str:
        """``text`` with every secret this config holds (env and header values, expanded variables) hidden."""
        hidden = {*self.secrets, *self.env.values(), *self.headers.values()}
        for value in sorted((v for v in hidden if len(v) >= _MIN_SECRET_LENGTH), key=len, reverse=True):
            text = text.replace(value, "***")
        return text

    @property
    def target(self) -> str:
        """Where the server is, safe to log and to show: the command (no arguments) or the URL's scheme, host and port
        (its path, query and user info are left out: users put tokens in all three)."""
        if self.transport == "stdio":
            return self.redact(self.command or "")
        return self.redact(safe_url(self.url or ""))

    def __repr__(self) -> str:
        parts = [f"name={self.name!r}", f"transport={self.transport!r}"]
        if self.transport == "stdio":
            parts += [f"command={self.target!r}", f"args=<{len(self.args)} arguments>"]
            parts += [f"env=<keys {sorted(self.env)}>", f"cwd={self.cwd and self.redact(self.cwd)!r}"]
        else:
            parts += [f"url={self.target!r}", f"headers=<keys {sorted(self.headers)}>"]
        parts += [f"tools={self.tools!r}", f"side_effects={self.side_effects!r}"]
        return f"ServerConfig({', '.join(parts)})"


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
    return parse_upstream_config(data, source)


def parse_upstream_config(data: object, source: str, *, environ: Mapping[str, str] | None = None) -> list[ServerConfig]:
    """Check already-parsed config ``data``; ``source`` names it in errors, ``environ`` defaults to ``os.environ``.

    Servers with ``"disabled": true`` are left out. Top-level keys other than ``mcpServers`` and ``servers`` are
    ignored, so a client's whole settings file (``claude_desktop_config.json``) can be used as it is.
    """
    if environ is None:
        environ = os.environ
    if not isinstance(data, dict):
        _fail(source, None, None, f"the file must hold a JSON object, not {_kind(data)}", '{"mcpServers": {...}}')
    present = [key for key in ("mcpServers", "servers") if key in data]
    if len(present) != 1:
        problem = "has both" if present else "has neither"
        _fail(source, None, None, f"the object {problem} of the keys", '"mcpServers" (or VS Code\'s "servers")')
    servers = data[present[0]]
    if not isinstance(servers, dict):
        _fail(source, None, present[0], f"must be an object of servers by name, not {_kind(servers)}", "{}")
    configs = []
    for name, entry in servers.items():
        config = _parse_server(source, name, entry, environ)
        if config is not None:
            configs.append(config)
    return configs


def _parse_server(source: str, name: str, entry: object, environ: Mapping[str, str]) -> ServerConfig | None:
    if not SERVER_NAME_PATTERN.fullmatch(name) or name in RESERVED_NAMES:
        _fail(
            source, name, None,
            "is not a usable server name (code calls it as tools.<name>)",
            "1 to 64 characters of A-Z a-z 0-9 _ . - (not __proto__, constructor or prototype)",
        )  # fmt: skip
    if not isinstance(entry, dict):
        _fail(source, name, None, f"must be an object, not {_kind(entry)}", '{"command": ...} or {"url": ...}')
    for key in entry:
        if key in REFUSED_KEYS:
            _fail(source, name, key, "is not supported", REFUSED_KEYS[key])
        if key not in ACCEPTED_KEYS:
            _fail(source, name, key, "is not a known key", ", ".join(sorted(ACCEPTED_KEYS - IGNORED_KEYS)))
    disabled = entry.get("disabled", False)
    if not isinstance(disabled, bool):
        _fail(source, name, "disabled", f"must be true or false, not {_kind(disabled)}", "true, false")
    if disabled:
        return None
    transport = _transport(source, name, entry)
    wrong = (HTTP_KEYS if transport == "stdio" else STDIO_KEYS) & entry.keys()
    if wrong:
        key = sorted(wrong)[0]
        accepted = ", ".join(sorted(STDIO_KEYS if transport == "stdio" else HTTP_KEYS))
        _fail(source, name, key, f"does not apply to a {transport} server", accepted)
    secrets: set[str] = set()

    def expand(key: str, value: str) -> str:
        return _expand(source, name, key, value, environ, secrets)

    policy = _policy(source, name, entry)
    if transport == "stdio":
        command = _string(source, name, entry, "command")
        if command is None or not command:
            _fail(source, name, "command", "is missing or empty", 'the program to run, e.g. "npx"')
        cwd = _string(source, name, entry, "cwd")
        config = ServerConfig(
            name=name,
            transport="stdio",
            command=expand("command", command),
            args=tuple(expand("args", arg) for arg in _strings(source, name, entry, "args")),
            env=MappingProxyType({k: expand("env", v) for k, v in _string_map(source, name, entry, "env").items()}),
            cwd=None if cwd is None else expand("cwd", cwd),
            tools=policy[0],
            side_effects=policy[1],
            secrets=frozenset(secrets),
        )
    else:
        url = _string(source, name, entry, "url")
        if url is None:
            _fail(source, name, "url", "is missing", "the server's Streamable HTTP endpoint, http(s)://host/path")
        url = expand("url", url)
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            _fail(source, name, "url", "is not an http(s) URL", "http://host:port/path or https://host/path")
        headers = {k: expand("headers", v) for k, v in _string_map(source, name, entry, "headers").items()}
        config = ServerConfig(
            name=name,
            transport="http",
            url=url,
            headers=MappingProxyType(headers),
            tools=policy[0],
            side_effects=policy[1],
            secrets=frozenset(secrets),
        )
    return config


def _transport(source: str, name: str, entry: dict[str, Any]) -> Transport:
    declared = [(key, entry[key]) for key in ("type", "transportType") if key in entry]
    inferred: Transport | None = "stdio" if "command" in entry else "http" if "url" in entry else None
    if "command" in entry and "url" in entry:
        _fail(source, name, "url", 'cannot be given together with "command"', '"command" (stdio) or "url" (http)')
    for key, value in declared:
        if value == "sse":
            _fail(
                source, name, key,
                "is \"sse\": the old HTTP+SSE transport is not supported",
                "a server's Streamable HTTP endpoint (\"type\": \"http\"), or a stdio command",
            )  # fmt: skip
        if value not in TRANSPORT_TYPES:
            _fail(source, name, key, f"has the unknown value {value!r}", ", ".join(f'"{t}"' for t in TRANSPORT_TYPES))
        if inferred is not None and TRANSPORT_TYPES[value] != inferred:
            wanted = '"command"' if TRANSPORT_TYPES[value] == "stdio" else '"url"'
            _fail(source, name, key, f"is {value!r} but the server has no {wanted}", f"{wanted} with this type")
        inferred = TRANSPORT_TYPES[value]
    if inferred is None:
        _fail(source, name, None, "says neither how to start it nor where it is", '"command" (stdio) or "url" (http)')
    return inferred


def _policy(source: str, name: str, entry: dict[str, Any]) -> tuple[tuple[str, ...] | None, SideEffects]:
    tools: tuple[str, ...] | None = None
    if "tools" in entry:
        patterns = _strings(source, name, entry, "tools")
        if any(not pattern for pattern in patterns):
            _fail(source, name, "tools", "contains an empty name", 'tool names or patterns such as "get_*"')
        tools = tuple(patterns)
    side_effects = entry.get("sideEffects", "refuse")
    accepted = get_args(SideEffects)
    if side_effects not in accepted:
        _fail(source, name, "sideEffects", f"has the value {side_effects!r}", ", ".join(f'"{a}"' for a in accepted))
    return tools, cast(SideEffects, side_effects)


def _expand(source: str, name: str, key: str, value: str, environ: Mapping[str, str], secrets: set[str]) -> str:
    """Replace ``${VAR}``, ``${env:VAR}`` and ``${VAR:-default}``; a variable's value is never put in a message."""

    def replace(match: re.Match[str]) -> str:
        body = match.group(1)
        variable, _, default = body.partition(":-")
        has_default = ":-" in body
        if variable.startswith("env:"):
            variable = variable[4:]
        elif ":" in variable:
            _fail(
                source, name, key,
                f"uses ${{{body}}}, which only the client that defined it can fill in",
                "${VAR} or ${env:VAR} from this process's environment",
            )  # fmt: skip
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", variable):
            _fail(source, name, key, f"uses ${{{body}}}, which is not a variable name", "${VAR} or ${env:VAR}")
        if variable in environ:
            found = environ[variable]
        elif has_default:
            found = default
        else:
            _fail(
                source,
                name,
                key,
                f"uses the environment variable {variable} which is not set",
                "set it, or ${VAR:-default}",
            )
        secrets.add(found)
        return found

    return _VARIABLE.sub(replace, value)


def _string(source: str, name: str, entry: dict[str, Any], key: str) -> str | None:
    value = entry.get(key)
    if value is not None and not isinstance(value, str):
        _fail(source, name, key, f"must be a string, not {_kind(value)}", "a JSON string")
    return value


def _strings(source: str, name: str, entry: dict[str, Any], key: str) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        _fail(source, name, key, f"must be a list of strings, not {_kind(value)}", '["...", "..."]')
    return value


def _string_map(source: str, name: str, entry: dict[str, Any], key: str) -> dict[str, str]:
    value = entry.get(key, {})
    if not isinstance(value, dict):
        _fail(source, name, key, f"must be an object of strings, not {_kind(value)}", '{"NAME": "value"}')
    for item, inner in value.items():
        if not isinstance(inner, str):
            # The value itself stays out of the message: it may be a credential.
            _fail(source, name, key, f"has a value for {item!r} that is {_kind(inner)}", "string values only")
    return value


def _fail(source: str, name: str | None, key: str | None, problem: str, accepted: str) -> NoReturn:
    where = source + (f": server {name!r}" if name is not None else "") + (f": key {key!r}" if key else "")
    raise UpstreamConfigError(f"{where} {problem}; accepted: {accepted}")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)


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
