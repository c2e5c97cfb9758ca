"""Settings and their defaults, in one place.

Every limit is a named constant here; the CLI, the tool schemas, the settings reference (docs/settings.md) and the
worker pool all read them from this module. At run time each setting can be given as a command-line flag or as an
environment variable named ``SANDBOX_<NAME>`` (for example ``SANDBOX_MEMORY_LIMIT_MB=256``). The fields of
:class:`Settings` are the one list of settings: the command line makes a flag of each (its help is the field's
description; :class:`Option` marks the fields whose flag is named otherwise, belongs to ``serve`` only, or does not
exist), and a test holds the table in docs/settings.md to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = [
    "DEFAULT_MAX_CALLS_IN_FLIGHT",
    "DEFAULT_MAX_CODE_BYTES",
    "DEFAULT_MAX_CONSENT_ARGUMENT_CHARS",
    "DEFAULT_MAX_INPUT_BYTES",
    "DEFAULT_MAX_JOURNAL_BYTES",
    "DEFAULT_MAX_SESSIONS_PER_CLIENT",
    "DEFAULT_MAX_TIMEOUT_MS",
    "DEFAULT_MEMORY_LIMIT_MB",
    "DEFAULT_OUTPUT_CAP_BYTES",
    "DEFAULT_SESSION_IDLE_TIMEOUT_S",
    "DEFAULT_SESSION_MAX_AGE_S",
    "DEFAULT_SESSION_REBUILD_TIMEOUT_S",
    "DEFAULT_TIMEOUT_MS",
    "DEFAULT_TIMEZONE",
    "Option",
    "Settings",
    "is_loopback",
]

DEFAULT_TIMEOUT_MS = 5_000
"""Wall-clock limit of one ``execute_js`` call when the caller names none."""
DEFAULT_MAX_TIMEOUT_MS = 60_000
"""The largest ``timeout_ms`` a caller may ask for."""
DEFAULT_MEMORY_LIMIT_MB = 128
"""Memory one execution may use: the V8 heap limit, and the base of the worker's OS data limit."""
DEFAULT_OUTPUT_CAP_BYTES = 65_536
"""stdout + stderr + the rendered result, together, in UTF-8 bytes; beyond it head and tail are kept."""
DEFAULT_MAX_CODE_BYTES = 100_000
"""Largest accepted ``code`` argument, in UTF-8 bytes."""
DEFAULT_MAX_INPUT_BYTES = 1_048_576
"""Largest accepted ``input`` argument, as compact JSON in UTF-8 bytes."""
DEFAULT_MAX_FILES = 100
"""Most data-folder files one ``execute_js`` call may name (after patterns are expanded)."""
DEFAULT_MAX_FILES_BYTES = 16 * 1_048_576
"""Most bytes (as stored on disk) of data-folder files one ``execute_js`` call may name, together."""
DEFAULT_MAX_RESOURCE_BYTES = 10 * 1_048_576
"""Largest data-folder file ``resources/read`` returns."""
DEFAULT_MAX_REQUEST_MEMORY_MB = 256
"""Memory that requests in progress (running, or waiting for a worker) may hold together, estimated from their size
(see :mod:`sandbox_server.backlog`); a request that does not fit is refused at once (HTTP 503 with Retry-After, a
JSON-RPC error over stdio)."""
DEFAULT_MAX_TOOL_RESULT_BYTES = 4 * 2**20
"""Largest result of one upstream tool call, measured as JSON: it travels to the worker in one frame."""
DEFAULT_MAX_TOOL_CALLS = 50
"""Calls one execution may make to the host while it runs: tools of other servers, and file reads at run time."""
DEFAULT_MAX_CALLS_IN_FLIGHT = 8
"""Such calls in progress at once; more wait their turn."""
DEFAULT_MAX_CONSENT_ARGUMENT_CHARS = 10_000
"""Largest arguments, in characters of the JSON shown, that the user is asked to consent to (``confirm``): the
question shows them in full; a call with larger ones is refused, never shown shortened."""
MAX_HOST_REQUEST_BYTES = 1_048_576
"""Default largest request (its arguments as JSON) one such call may send (setting ``max_tool_argument_bytes``)."""
DEFAULT_MAX_QUEUE_WAIT_S = 30.0
"""Seconds a call may wait for a free JavaScript worker before it is answered that the server is busy."""
DEFAULT_STATE_TTL_S = 600.0
"""Seconds a run paused for the user's consent (MCP 2026-07-28 ``input_required``) may wait for the answer."""
DEFAULT_MAX_JOURNAL_BYTES = 16 * 2**20
"""Largest journal, as JSON, of a run paused for consent or of a session (what it saw, to be run again)."""
MIN_MESSAGE_BYTES = 1_048_576
"""The largest request message is never set below this."""
MESSAGE_OVERHEAD_BYTES = 65_536
"""Room in a request message for the JSON-RPC envelope around ``code`` and ``input``."""
DEFAULT_TIMEZONE = "UTC"
"""Time zone the JavaScript engine sees, so that date output does not depend on the host."""
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_HTTP_MAX_CONNECTIONS = 256
"""Open HTTP connections at most; beyond it the oldest connection without a request in progress is closed, or
the new one is answered 503 when every connection has one."""
DEFAULT_HTTP_HEADER_TIMEOUT_S = 10.0
"""Seconds a connection may take to send a request's headers, from when it opens or starts the request."""
DEFAULT_HTTP_BODY_TIMEOUT_S = 20.0
"""Seconds a request may take to send its body once its headers have arrived."""
DEFAULT_HTTP_MAX_SESSIONS = 1_000
"""Open sessions at most when HTTP sessions are enabled."""
DEFAULT_HTTP_MAX_STREAMS = 64
"""Open ``GET /mcp`` streams at most (HTTP sessions only); a new one ends the oldest."""
DEFAULT_HTTP_STREAM_MAX_S = 300.0
"""Seconds a ``GET /mcp`` stream stays open before the server ends it (its client may open a new one)."""
DEFAULT_HTTP_SESSION_IDLE_TIMEOUT_S = 600.0
"""Seconds a session may go without any request before it is closed (HTTP sessions only)."""
DEFAULT_HTTP_DRAIN_DELAY_S = 0.0
"""Seconds between SIGTERM and the drain during which the server still serves but ``/healthz`` answers 503, so that
a load balancer stops sending it requests first (behind one, set it above the balancer's time to notice)."""
DEFAULT_UPSTREAM_CONNECT_TIMEOUT_S = 10.0
"""Seconds each upstream server has to start and list its tools."""
DEFAULT_TOOL_CALL_TIMEOUT_S = 30.0
"""Seconds one upstream tool call may take."""
DEFAULT_MAX_SESSIONS_PER_CLIENT = 4
"""JavaScript sessions one client may have at once."""
DEFAULT_SESSION_IDLE_TIMEOUT_S = 900.0
"""Seconds a JavaScript session may go without a call before it ends."""
DEFAULT_SESSION_MAX_AGE_S = 4 * 3600.0
"""Seconds after its start at which a JavaScript session ends, used or not."""
DEFAULT_SESSION_REBUILD_TIMEOUT_S = 120.0
"""Seconds a session may take to be rebuilt from its journal."""


SESSION_BUDGET_BYTES = 256 * 2**20
"""Memory one session may come to (its worker process and a full heap), for the default number of sessions."""


def default_max_sessions() -> int:
    """Sessions one server keeps at most by default: a quarter of the machine's memory, one budget each, 2 to 32."""
    import psutil

    try:
        total = int(psutil.virtual_memory().total)
    except Exception:  # a platform psutil cannot read
        return 4
    return max(2, min(32, total // 4 // SESSION_BUDGET_BYTES))


def default_workers() -> int:
    """One worker process per CPU this process may run on."""
    from sandbox_server import platform

    try:
        return platform.cpu_count()
    except ValueError:  # an unusable SANDBOX_PLATFORM, which the ``platform`` setting itself reports
        return 1


@dataclass(frozen=True, slots=True)
class Option:
    """Metadata of a :class:`Settings` field whose flag differs from the rule: each field is a flag named after it
    (``max_files``: ``--max-files``) on every command, and ``SANDBOX_<NAME>`` (see :mod:`sandbox_server.cli.flags`)."""

    flag: str | None = None
    """The flag's name; None: derived from the field's name; empty: no flag, the environment variable only."""
    serve_only: bool = False
    """A flag of ``serve`` only (how to serve), not of the client commands, which start a stdio server."""
    default_text: str | None = None
    """How the default reads in ``--help`` and docs/settings.md, where it is computed at start-up."""


ENVIRONMENT_ONLY = Option("")
SERVING = Option(serve_only=True)


class Settings(BaseSettings):
    """Validated server configuration; a bad value fails at start-up with a message naming it. Each field's
    description is its flag's help."""

    model_config = SettingsConfigDict(env_prefix="SANDBOX_", extra="forbid", validate_default=True)

    default_timeout_ms: int = Field(DEFAULT_TIMEOUT_MS, ge=1, description="execute_js time limit if a call names none")
    max_timeout_ms: int = Field(DEFAULT_MAX_TIMEOUT_MS, ge=1, description="largest timeout_ms a call may ask for")
    memory_limit_mb: int = Field(DEFAULT_MEMORY_LIMIT_MB, ge=16, le=65_536, description="memory per execution, MiB")
    output_cap_bytes: int = Field(DEFAULT_OUTPUT_CAP_BYTES, ge=1_024, description="cap on stdout + stderr + result")
    max_code_bytes: int = Field(DEFAULT_MAX_CODE_BYTES, ge=1, description="largest accepted code, in bytes")
    max_input_bytes: int = Field(DEFAULT_MAX_INPUT_BYTES, ge=2, description="largest accepted input, in bytes of JSON")
    workers: Annotated[int, Option(default_text="CPU count")] = Field(
        default_factory=default_workers, ge=1, le=256, description="JavaScript worker processes"
    )
    timezone: str = Field(DEFAULT_TIMEZONE, min_length=1, description="time zone the JavaScript code sees (IANA name)")
    data_dir: Path | None = Field(None, description="folder whose files execute_js may read and resources publish")
    packages_dir: Annotated[Path | None, Option(default_text="a per-user data folder")] = Field(
        None, description="folder of the npm packages code may import (sandbox-server packages add)"
    )
    max_files: int = Field(DEFAULT_MAX_FILES, ge=1, description="most data-folder files one execute_js call may name")
    max_files_bytes: int = Field(
        DEFAULT_MAX_FILES_BYTES, ge=1, description="most bytes of data-folder files one execute_js call may name"
    )
    max_resource_bytes: int = Field(DEFAULT_MAX_RESOURCE_BYTES, ge=1, description="largest file resources/read returns")
    max_request_memory_mb: int = Field(
        DEFAULT_MAX_REQUEST_MEMORY_MB,
        ge=1,
        le=1_048_576,
        description="memory requests in progress may hold together, estimated from their size; more are refused",
    )
    max_queue_wait_s: float = Field(
        DEFAULT_MAX_QUEUE_WAIT_S, gt=0, le=86_400, description="seconds a call may wait for a free worker"
    )
    max_tool_calls: int = Field(
        DEFAULT_MAX_TOOL_CALLS,
        ge=1,
        le=100_000,
        description="calls one execution may make to the host (tools, file reads)",
    )
    max_calls_in_flight: int = Field(
        DEFAULT_MAX_CALLS_IN_FLIGHT, ge=1, le=1_000, description="such calls in progress at once per execution"
    )
    upstream: Path | None = Field(
        None,
        description="JSON file of other MCP servers (mcpServers format) whose tools execute_js_with_tools calls",
    )
    upstream_connect_timeout_s: float = Field(
        DEFAULT_UPSTREAM_CONNECT_TIMEOUT_S,
        gt=0,
        le=600,
        description="seconds each upstream server has to start and list its tools (raise it for servers that "
        "npx downloads on first use)",
    )
    tool_call_timeout_s: float = Field(
        DEFAULT_TOOL_CALL_TIMEOUT_S, gt=0, le=86_400, description="seconds one upstream tool call may take"
    )
    max_tool_result_bytes: int = Field(
        DEFAULT_MAX_TOOL_RESULT_BYTES,
        ge=1_024,
        le=64 * 2**20,
        description="largest upstream tool result, in bytes of JSON",
    )
    max_tool_argument_bytes: int = Field(
        MAX_HOST_REQUEST_BYTES,
        ge=1_024,
        le=64 * 2**20,
        description="largest arguments of one upstream tool call, in bytes of JSON",
    )
    max_consent_argument_chars: int = Field(
        DEFAULT_MAX_CONSENT_ARGUMENT_CHARS,
        ge=100,
        le=1_048_576,
        description="largest arguments a consent question shows in full, in characters of JSON; larger calls are "
        "refused",
    )
    max_sessions: Annotated[int, Option(default_text="a quarter of memory / 256 MiB, 2 to 32")] = Field(
        default_factory=default_max_sessions,
        ge=1,
        le=1_024,
        description="sessions the server keeps at most, each in a worker process of its own",
    )
    max_sessions_per_client: int = Field(
        DEFAULT_MAX_SESSIONS_PER_CLIENT, ge=1, le=1_024, description="sessions one client may have at once"
    )
    session_idle_timeout_s: float = Field(
        DEFAULT_SESSION_IDLE_TIMEOUT_S, gt=0, le=7 * 86_400, description="seconds before an unused session ends"
    )
    session_max_age_s: float = Field(
        DEFAULT_SESSION_MAX_AGE_S,
        gt=0,
        le=30 * 86_400,
        description="seconds after which a session ends, used or not",
    )
    session_rebuild_timeout_s: float = Field(
        DEFAULT_SESSION_REBUILD_TIMEOUT_S,
        gt=0,
        le=86_400,
        description="seconds a session may take to be rebuilt from its journal",
    )
    state_ttl_s: float = Field(
        DEFAULT_STATE_TTL_S,
        gt=0,
        le=7 * 86_400,
        description="seconds a run paused for the user's consent waits for the answer",
    )
    state_store: str = Field(
        "memory",
        description="where sessions and paused runs are kept: memory (this process), sqlite:///PATH (processes on one "
        "host) or redis://HOST:PORT/DB (processes anywhere); a shared store needs SANDBOX_STATE_KEYS",
    )
    max_journal_bytes: int = Field(
        DEFAULT_MAX_JOURNAL_BYTES,
        ge=65_536,
        le=256 * 2**20,
        description="largest journal of a paused run or a session, in bytes of JSON; a larger one is refused",
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field("info", description="stderr log level")
    platform: Annotated[Literal["auto", "linux", "portable"], ENVIRONMENT_ONLY] = Field(
        "auto",
        description="operating-system calls: linux, or portable (macOS and others; forced on Linux for testing); "
        "read from SANDBOX_PLATFORM only, by the server and its workers alike",
    )
    auth_token: Annotated[SecretStr | None, ENVIRONMENT_ONLY] = Field(
        None,
        description="bearer token HTTP clients must send; required when binding beyond localhost (never a flag, so "
        "that it does not show in process listings)",
    )
    transport: Annotated[Literal["stdio", "http"], SERVING] = Field("stdio", description="how to serve MCP")
    host: Annotated[str, SERVING] = Field(DEFAULT_HOST, min_length=1, description="HTTP bind address")
    port: Annotated[int, SERVING] = Field(DEFAULT_PORT, ge=0, le=65_535, description="HTTP port (0 picks a free one)")
    allowed_hosts: Annotated[list[str], NoDecode, SERVING] = Field(
        default_factory=list,
        description="comma-separated Host names accepted over HTTP besides localhost (DNS-rebinding protection), "
        "e.g. mcp.example.com",
    )
    http_sessions: Annotated[bool, Option(serve_only=True, default_text="off (stateless)")] = Field(
        False,
        description="keep MCP sessions (Mcp-Session-Id) over HTTP, so that logging/setLevel and "
        "notifications/cancelled work",
    )
    metrics_token: Annotated[SecretStr | None, ENVIRONMENT_ONLY] = Field(
        None, description="bearer token that opens GET /metrics only (the auth token opens it too)"
    )
    http_max_connections: Annotated[int, SERVING] = Field(
        DEFAULT_HTTP_MAX_CONNECTIONS, ge=1, le=65_536, description="open HTTP connections at most"
    )
    http_header_timeout_s: Annotated[float, Option("--http-header-timeout", serve_only=True)] = Field(
        DEFAULT_HTTP_HEADER_TIMEOUT_S, gt=0, le=3_600, description="seconds a client may take to send request headers"
    )
    http_body_timeout_s: Annotated[float, Option("--http-body-timeout", serve_only=True)] = Field(
        DEFAULT_HTTP_BODY_TIMEOUT_S, gt=0, le=3_600, description="seconds a client may take to send a request body"
    )
    http_max_sessions: Annotated[int, SERVING] = Field(
        DEFAULT_HTTP_MAX_SESSIONS, ge=1, le=1_000_000, description="open HTTP sessions at most (with --http-sessions)"
    )
    http_session_idle_timeout_s: Annotated[float, Option("--http-session-idle-timeout", serve_only=True)] = Field(
        DEFAULT_HTTP_SESSION_IDLE_TIMEOUT_S,
        gt=0,
        le=86_400,
        description="seconds before an unused HTTP session is closed (with --http-sessions)",
    )
    http_max_streams: Annotated[int, SERVING] = Field(
        DEFAULT_HTTP_MAX_STREAMS, ge=1, le=65_536, description="open GET /mcp streams at most (with --http-sessions)"
    )
    http_stream_max_s: Annotated[float, SERVING] = Field(
        DEFAULT_HTTP_STREAM_MAX_S,
        gt=0,
        le=86_400,
        description="seconds before a GET /mcp stream is ended (with --http-sessions)",
    )
    drain_timeout_s: Annotated[
        float | None, Option("--drain-timeout", serve_only=True, default_text="max timeout + 5 s")
    ] = Field(
        None,
        ge=0,
        le=86_400,
        description="seconds to keep answering requests in progress after stdin closes (stdio) or SIGTERM",
    )
    http_drain_delay_s: Annotated[float, Option("--http-drain-delay", serve_only=True)] = Field(
        DEFAULT_HTTP_DRAIN_DELAY_S,
        ge=0,
        le=600,
        description="seconds after SIGTERM of still serving with /healthz at 503, before the drain",
    )

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("state_store")
    @classmethod
    def _known_store(cls, value: str) -> str:
        from sandbox_server.store_location import parse_store_url

        parse_store_url(value)
        return value.strip()

    @property
    def packages_path(self) -> Path:
        """The packages folder: ``packages_dir``, or ``packages`` in the per-user data folder."""
        from sandbox_server.packages.config import default_packages_dir

        return default_packages_dir() if self.packages_dir is None else self.packages_dir.expanduser().absolute()

    @field_validator("data_dir", "packages_dir", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        # SANDBOX_DATA_DIR= must not become Path(""), which is the current directory.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("data_dir")
    @classmethod
    def _existing_folder(cls, value: Path | None) -> Path | None:
        if value is None:
            return None
        value = value.expanduser()
        if not value.is_dir():
            raise ValueError(f"data folder {str(value)!r} does not exist or is not a directory")
        return value.resolve()

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        from zoneinfo import available_timezones

        if value not in available_timezones() and value != "UTC":
            raise ValueError(f"unknown time zone {value!r}; use an IANA name such as UTC or Europe/Paris")
        return value

    @property
    def max_message_bytes(self) -> int:
        """The largest request message accepted (an HTTP body, a line over stdio): room for the largest ``code``
        and ``input``, each character JSON-escaped at worst to two, and the envelope."""
        escaped = 2 * (self.max_code_bytes + self.max_input_bytes)
        return max(MIN_MESSAGE_BYTES, escaped + MESSAGE_OVERHEAD_BYTES)

    @property
    def max_message_values(self) -> int:
        """The most JSON values a request message may hold (separators and brackets counted, see
        :func:`sandbox_server.backlog.json_values`): as many as the densest ``code`` and ``input`` the byte limits
        allow (``[0,0,...]`` has one per two bytes), so that parsing a message, which the transport does on the event
        loop, takes a bounded time (about 0.15 s at the defaults)."""
        return (self.max_code_bytes + self.max_input_bytes) // 2 + MESSAGE_OVERHEAD_BYTES

    @model_validator(mode="after")
    def _default_within_maximum(self) -> Settings:
        if self.default_timeout_ms > self.max_timeout_ms:
            raise ValueError(
                f"default_timeout_ms ({self.default_timeout_ms}) must not exceed max_timeout_ms ({self.max_timeout_ms})"
            )
        if self.transport == "http" and self.auth_token is not None:
            _check_token(self.auth_token.get_secret_value())
        if self.transport == "http" and self.metrics_token is not None:
            _check_token(self.metrics_token.get_secret_value(), "SANDBOX_METRICS_TOKEN")
        if self.transport == "http" and not is_loopback(self.host) and self.auth_token is None:
            raise ValueError(
                f"serving HTTP on {self.host}, beyond this machine, requires a bearer token: "
                "set SANDBOX_AUTH_TOKEN (or bind to 127.0.0.1)"
            )
        return self


def _check_token(token: str, variable: str = "SANDBOX_AUTH_TOKEN") -> None:
    """Refuse a bearer token no client could send: blank, or with characters a header value cannot carry."""
    if not token.strip():
        raise ValueError(
            f"{variable} is set but empty or blank, so no request could ever match it: "
            "set it to a secret of visible ASCII characters (for example 32 random hex digits), or unset it"
        )
    if any(not 0x21 <= ord(char) <= 0x7E for char in token):
        raise ValueError(
            f"{variable} contains spaces, control or non-ASCII characters, which an Authorization header "
            "cannot carry reliably: use visible ASCII characters only (letters, digits, and -._~+/=)"
        )


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
