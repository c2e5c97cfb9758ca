"""The command line's flags: one for each setting (also read from ``SANDBOX_<NAME>``), the parser, and how the flags
become :class:`~sandbox_server.settings.Settings` (or an error naming what the user set)."""

from __future__ import annotations

import argparse
import os
import re

from pydantic_core import ErrorDetails

from sandbox_server.cli.packages import add_packages_parser
from sandbox_server.settings import DEFAULT_HOST, DEFAULT_PORT, Settings

__all__ = ["build_parser", "configuration_problem", "settings_env", "settings_from"]

# Settings fields exposed as flags: (flag, field, type, help)
_SETTING_FLAGS: list[tuple[str, str, type, str]] = [
    ("--default-timeout-ms", "default_timeout_ms", int, "execute_js time limit when a call names none"),
    ("--max-timeout-ms", "max_timeout_ms", int, "largest timeout_ms a call may ask for"),
    ("--memory-limit-mb", "memory_limit_mb", int, "memory one execution may use, in MiB"),
    ("--output-cap-bytes", "output_cap_bytes", int, "cap on stdout + stderr + result text, in bytes"),
    ("--max-code-bytes", "max_code_bytes", int, "largest accepted code, in bytes"),
    ("--max-input-bytes", "max_input_bytes", int, "largest accepted input, in bytes of JSON"),
    ("--workers", "workers", int, "JavaScript worker processes (default: number of CPUs)"),
    ("--timezone", "timezone", str, "time zone the JavaScript code sees (IANA name)"),
    ("--data-dir", "data_dir", str, "folder whose files execute_js may read and resources publish (default: none)"),
    ("--packages-dir", "packages_dir", str, "folder of the npm packages code may import (default: per-user data)"),
    ("--max-files", "max_files", int, "most data-folder files one execute_js call may name"),
    ("--max-files-bytes", "max_files_bytes", int, "most bytes of data-folder files one execute_js call may name"),
    ("--max-resource-bytes", "max_resource_bytes", int, "largest data-folder file resources/read returns"),
    (
        "--max-request-memory-mb",
        "max_request_memory_mb",
        int,
        "memory requests in progress may hold together, estimated from their size; more are refused",
    ),
    ("--max-queue-wait-s", "max_queue_wait_s", float, "seconds a call may wait for a free worker"),
    ("--max-tool-calls", "max_tool_calls", int, "calls one execution may make to the host (tools, file reads)"),
    ("--max-calls-in-flight", "max_calls_in_flight", int, "such calls in progress at once per execution"),
    (
        "--upstream",
        "upstream",
        str,
        "JSON file of other MCP servers (mcpServers format) whose tools execute_js_with_tools calls (default: none)",
    ),
    ("--upstream-connect-timeout-s", "upstream_connect_timeout_s", float, "seconds an upstream server has to start"),
    ("--tool-call-timeout-s", "tool_call_timeout_s", float, "seconds one upstream tool call may take"),
    ("--max-tool-result-bytes", "max_tool_result_bytes", int, "largest upstream tool result, in bytes of JSON"),
    (
        "--max-consent-argument-chars",
        "max_consent_argument_chars",
        int,
        "largest arguments a consent question shows in full, in characters of JSON; larger calls are refused",
    ),
    ("--max-sessions", "max_sessions", int, "sessions the server keeps at most (default: sized to memory)"),
    ("--max-sessions-per-client", "max_sessions_per_client", int, "sessions one client may have at once"),
    ("--session-idle-timeout-s", "session_idle_timeout_s", float, "seconds before an unused session ends"),
    ("--session-max-age-s", "session_max_age_s", float, "seconds after which a session ends, used or not"),
    (
        "--session-rebuild-timeout-s",
        "session_rebuild_timeout_s",
        float,
        "seconds a session may take to be rebuilt from its journal",
    ),
    ("--state-ttl-s", "state_ttl_s", float, "seconds a run paused for the user's consent waits for the answer"),
    ("--max-journal-bytes", "max_journal_bytes", int, "largest journal of a paused run or a session, as JSON"),
    (
        "--state-store",
        "state_store",
        str,
        "where sessions and paused runs are kept: memory, sqlite:///PATH or redis://HOST:PORT/DB",
    ),
]


# HTTP limits, as flags of `serve`: (flag, field, type, help)
_HTTP_FLAGS: list[tuple[str, str, type, str]] = [
    ("--http-max-connections", "http_max_connections", int, "open connections at most"),
    ("--http-header-timeout", "http_header_timeout_s", float, "seconds a client may take to send request headers"),
    ("--http-body-timeout", "http_body_timeout_s", float, "seconds a client may take to send a request body"),
    ("--http-max-sessions", "http_max_sessions", int, "open sessions at most (with --http-sessions)"),
    ("--http-session-idle-timeout", "http_session_idle_timeout_s", float, "seconds before an unused session ends"),
    ("--http-max-streams", "http_max_streams", int, "open GET streams at most (with --http-sessions)"),
    ("--http-stream-max-s", "http_stream_max_s", float, "seconds before a GET stream is ended (with --http-sessions)"),
    ("--http-drain-delay", "http_drain_delay_s", float, "seconds after SIGTERM of serving with /healthz at 503"),
]


def _add_setting_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("limits and options (each also read from SANDBOX_<NAME>)")
    for flag, field, kind, text in _SETTING_FLAGS:
        default = Settings.model_fields[field].default
        shown = "" if default is None or callable(default) or field == "workers" else f" (default: {default})"
        env = "SANDBOX_" + field.upper()
        group.add_argument(flag, dest=field, type=kind, default=None, help=f"{text}{shown} [{env}]")
    group.add_argument(
        "--log-level",
        dest="log_level",
        choices=["debug", "info", "warning", "error"],
        default=None,
        help="stderr log level (default: info) [SANDBOX_LOG_LEVEL]",
    )


def _add_serve_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("serving")
    group.add_argument(
        "--transport", choices=["stdio", "http"], default=None, help="stdio (default) or http [SANDBOX_TRANSPORT]"
    )
    group.add_argument("--host", default=None, help=f"HTTP bind address (default: {DEFAULT_HOST}) [SANDBOX_HOST]")
    group.add_argument("--port", type=int, default=None, help=f"HTTP port (default: {DEFAULT_PORT}) [SANDBOX_PORT]")
    group.add_argument(
        "--allowed-hosts",
        default=None,
        help="comma-separated Host names accepted over HTTP besides localhost [SANDBOX_ALLOWED_HOSTS]",
    )
    group.add_argument(
        "--http-sessions",
        dest="http_sessions",
        action="store_const",
        const=True,
        default=None,
        help="keep MCP sessions (Mcp-Session-Id) over HTTP, so that logging/setLevel and notifications/cancelled "
        "work; the default is stateless [SANDBOX_HTTP_SESSIONS]",
    )
    for flag, field, kind, text in _HTTP_FLAGS:
        default = Settings.model_fields[field].default
        shown = f"default: {default:g}"
        env = "SANDBOX_" + field.upper()
        group.add_argument(flag, dest=field, type=kind, default=None, help=f"{text} ({shown}) [{env}]")
    group.add_argument(
        "--drain-timeout",
        type=float,
        default=None,
        help="seconds to keep answering requests in progress after stdin closes (stdio) or SIGTERM "
        "(default: the maximum timeout plus 5 s)",
    )


def _add_client_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        default=None,
        help="reach a running server over Streamable HTTP (e.g. http://127.0.0.1:8000/mcp) instead of starting one; "
        "its token, if any, is read from SANDBOX_AUTH_TOKEN",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``sandbox-server`` command."""
    parser = argparse.ArgumentParser(
        prog="sandbox-server",
        description="MCP server for exact computation: add, divide, date_diff and sandboxed JavaScript (execute_js).",
        epilog="With no subcommand, serves MCP over stdio.",
    )
    parser.add_argument("--version", action="store_true", help="print package, mini-racer and V8 versions and exit")
    parser.add_argument(
        "--upstream",
        dest="upstream_before_command",
        metavar="FILE",
        help="JSON file of other MCP servers (mcpServers format); also accepted after the command",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser("serve", help="serve MCP (the default command; stdio unless --transport http)")
    _add_serve_flags(serve)
    _add_setting_flags(serve)

    tools = commands.add_parser("tools", help="list or call tools of a server started for the purpose")
    tool_commands = tools.add_subparsers(dest="tools_command", metavar="ACTION", required=True)
    listing = tool_commands.add_parser("list", help="list the tools")
    listing.add_argument("--json", action="store_true", help="print the whole tools/list result as JSON")
    _add_client_flags(listing)
    _add_setting_flags(listing)
    call = tool_commands.add_parser("call", help="call one tool and print its result")
    _add_client_flags(call)
    call.add_argument("name", help="tool name, e.g. add or execute_js")
    call.add_argument("--args", default="{}", help="arguments as a JSON object (default: {})")
    call.add_argument(
        "--then",
        action="append",
        default=[],
        metavar="JSON",
        help="arguments of a further call of the same tool, made after the first on the same connection (repeatable; "
        'e.g. two calls in one session: --args \'{"code": "var n = 1", "session": "s"}\' '
        '--then \'{"code": "n + 1", "session": "s"}\')',
    )
    call.add_argument("--code-file", help="execute_js: read `code` from this file ('-' for stdin)")
    call.add_argument("--json", action="store_true", help="print the whole CallToolResult as JSON")
    _add_setting_flags(call)

    resources = commands.add_parser(
        "resources", help="list or read the data folder's files (resources) of a server started for the purpose"
    )
    resource_commands = resources.add_subparsers(dest="resources_command", metavar="ACTION", required=True)
    listing = resource_commands.add_parser("list", help="list every resource (all pages)")
    listing.add_argument("--json", action="store_true", help="print the resources as a JSON array")
    _add_client_flags(listing)
    _add_setting_flags(listing)
    read = resource_commands.add_parser("read", help="print one resource: text as is, a binary blob as raw bytes")
    read.add_argument("uri", help="resource URI (e.g. sandbox-data:///sales/2025.csv) or a path in the data folder")
    read.add_argument("--json", action="store_true", help="print the whole resources/read result as JSON")
    _add_client_flags(read)
    _add_setting_flags(read)

    add_packages_parser(commands)

    upstream = commands.add_parser(
        "upstream", help="connect to the --upstream servers and list their tools and what code may do with each"
    )
    upstream_commands = upstream.add_subparsers(dest="upstream_command", metavar="ACTION", required=True)
    listing = upstream_commands.add_parser("list", help="list each server's state and tools")
    listing.add_argument("--json", action="store_true", help="print the listing as JSON")
    _add_setting_flags(listing)
    return parser


_HTTP_FIELDS = [field for _, field, _, _ in _HTTP_FLAGS]


def settings_from(args: argparse.Namespace) -> Settings:
    given = {field: getattr(args, field) for _, field, _, _ in _SETTING_FLAGS if getattr(args, field, None) is not None}
    if getattr(args, "upstream_before_command", None) is not None and "upstream" not in given:
        given["upstream"] = args.upstream_before_command
    for field in ("log_level", "transport", "host", "port", "allowed_hosts", "http_sessions", *_HTTP_FIELDS):
        if getattr(args, field, None) is not None:
            given[field] = getattr(args, field)
    return Settings(**given)


def configuration_problem(error: ErrorDetails, args: argparse.Namespace) -> str:
    """One settings error, naming what the user set: the flag if one was given, else the environment variable."""
    message = error["msg"].removeprefix("Value error, ")

    def source(field: str) -> str:
        return f"--{field.replace('_', '-')}" if getattr(args, field, None) is not None else f"SANDBOX_{field.upper()}"

    if not error["loc"]:  # a rule across settings: name each setting it mentions as the user would set it
        return re.sub(
            r"\b[a-z]+(?:_[a-z]+)+\b", lambda m: source(m[0]) if m[0] in Settings.model_fields else m[0], message
        )
    field = str(error["loc"][0])
    shown = "" if field in ("auth_token", "state_store") else f" = {error['input']!r}"  # a URL may hold a password
    return f"{source(field)}{shown}: {message}"


def settings_env(settings: Settings) -> dict[str, str]:
    """Environment that passes ``settings`` (and the caller's SANDBOX_* variables) to a child server."""
    env = {key: value for key, value in os.environ.items() if key.startswith("SANDBOX_")}
    for _, field, _, _ in _SETTING_FLAGS:
        value = getattr(settings, field)
        if value is not None:
            env["SANDBOX_" + field.upper()] = str(value)
    env["SANDBOX_LOG_LEVEL"] = "warning"
    env["SANDBOX_TRANSPORT"] = "stdio"
    return env
