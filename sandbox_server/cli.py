"""Command line: ``serve`` (the default) runs the server; ``tools list|call`` and ``resources list|read`` talk to one
as a client."""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import logging
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import anyio
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from sandbox_server.client_errors import HttpFailures, explain_failure
from sandbox_server.settings import DEFAULT_HOST, DEFAULT_PORT, Settings

__all__ = ["main", "run"]

logger = logging.getLogger("sandbox_server")

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
    return parser


_HTTP_FIELDS = [field for _, field, _, _ in _HTTP_FLAGS]


def _settings_from(args: argparse.Namespace) -> Settings:
    given = {field: getattr(args, field) for _, field, _, _ in _SETTING_FLAGS if getattr(args, field, None) is not None}
    for field in ("log_level", "transport", "host", "port", "allowed_hosts", "http_sessions", *_HTTP_FIELDS):
        if getattr(args, field, None) is not None:
            given[field] = getattr(args, field)
    return Settings(**given)


def _configuration_problem(error: ErrorDetails, args: argparse.Namespace) -> str:
    """One settings error, naming what the user set: the flag if one was given, else the environment variable."""
    message = error["msg"].removeprefix("Value error, ")

    def source(field: str) -> str:
        return f"--{field.replace('_', '-')}" if getattr(args, field, None) is not None else f"SANDBOX_{field.upper()}"

    if not error["loc"]:  # a rule across settings: name each setting it mentions as the user would set it
        return re.sub(
            r"\b[a-z]+(?:_[a-z]+)+\b", lambda m: source(m[0]) if m[0] in Settings.model_fields else m[0], message
        )
    field = str(error["loc"][0])
    shown = "" if field == "auth_token" else f" = {error['input']!r}"
    return f"{source(field)}{shown}: {message}"


def _configure_logging(level: str) -> None:
    logging.basicConfig(
        stream=sys.stderr,
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def _print_versions() -> None:
    from sandbox_server.sandbox import engine_versions
    from sandbox_server.server import package_version

    versions = engine_versions()
    sys.stdout.write(f"sandbox-server {package_version()} (mini-racer {versions['miniRacer']}, V8 {versions['v8']})\n")


def _settings_env(settings: Settings) -> dict[str, str]:
    """Environment that passes ``settings`` (and the caller's SANDBOX_* variables) to a child server."""
    env = {key: value for key, value in os.environ.items() if key.startswith("SANDBOX_")}
    for _, field, _, _ in _SETTING_FLAGS:
        value = getattr(settings, field)
        if value is not None:
            env["SANDBOX_" + field.upper()] = str(value)
    env["SANDBOX_LOG_LEVEL"] = "warning"
    env["SANDBOX_TRANSPORT"] = "stdio"
    return env


def _call_arguments(args: argparse.Namespace) -> dict[str, Any] | None:
    """The tool arguments from --args and --code-file; None (after saying why on stderr) when unusable."""
    arguments: dict[str, Any] = {}
    if args.tools_command == "call":
        try:
            parsed = json.loads(args.args)
        except json.JSONDecodeError as exc:
            sys.stderr.write(f"sandbox-server: --args is not valid JSON: {exc}\n")
            return None
        if not isinstance(parsed, dict):
            sys.stderr.write('sandbox-server: --args must be a JSON object, e.g. \'{"a": 1, "b": 2}\'\n')
            return None
        arguments = parsed
        if args.code_file is not None:
            try:
                if args.code_file == "-":
                    arguments["code"] = sys.stdin.read()
                else:
                    with open(args.code_file, encoding="utf-8") as handle:
                        arguments["code"] = handle.read()
            except OSError as exc:
                sys.stderr.write(f"sandbox-server: cannot read --code-file: {exc}\n")
                return None

    return arguments


async def _connect(
    stack: contextlib.AsyncExitStack, args: argparse.Namespace, settings: Settings, http_failures: HttpFailures
) -> Any:
    """A client connected to the server at ``--url``, or to one started for the purpose over stdio."""
    from mcp import Client, StdioServerParameters

    target: Any
    if args.url:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        token = settings.auth_token.get_secret_value() if settings.auth_token else None
        headers = {"Authorization": f"Bearer {token}"} if token else None
        http_client = await stack.enter_async_context(create_mcp_http_client(headers=headers))
        http_failures.attach(http_client)
        target = streamable_http_client(args.url, http_client=http_client)
    else:
        target = StdioServerParameters(
            command=sys.executable, args=["-m", "sandbox_server", "serve"], env=_settings_env(settings)
        )
    return await stack.enter_async_context(Client(target, mode="legacy"))


async def _resources_command(args: argparse.Namespace, settings: Settings, http_failures: HttpFailures) -> int:
    from mcp.shared.exceptions import MCPError

    from sandbox_server.resources import SCHEME, uri_of

    async with contextlib.AsyncExitStack() as stack:
        client = await _connect(stack, args, settings, http_failures)
        if client.server_capabilities is None or client.server_capabilities.resources is None:
            sys.stderr.write("sandbox-server: the server publishes no resources; start it with --data-dir PATH\n")
            return 2
        try:
            if args.resources_command == "list":
                listed: list[Any] = []
                cursor: str | None = None
                while True:
                    page = await client.list_resources(cursor=cursor)
                    listed.extend(page.resources)
                    cursor = page.next_cursor
                    if not cursor:
                        break
                if args.json:
                    dumped = [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in listed]
                    sys.stdout.write(json.dumps(dumped, indent=2, ensure_ascii=False) + "\n")
                else:
                    for item in listed:
                        sys.stdout.write(f"{item.uri}\t{item.mime_type}\t{item.size} bytes\n")
                return 0
            uri = args.uri if args.uri.startswith(SCHEME + ":") else uri_of(args.uri)
            result = await client.read_resource(uri)
        except MCPError as exc:
            sys.stderr.write(f"sandbox-server: {exc}\n")
            return 1
    if args.json:
        sys.stdout.write(result.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
        return 0
    for content in result.contents:
        text = getattr(content, "text", None)
        if text is not None:
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(base64.b64decode(content.blob))
            sys.stdout.buffer.flush()
    return 0


async def _tools_command(
    args: argparse.Namespace, settings: Settings, arguments: dict[str, Any], http_failures: HttpFailures
) -> int:
    async with contextlib.AsyncExitStack() as stack:
        client = await _connect(stack, args, settings, http_failures)
        if args.tools_command == "list":
            listed = await client.list_tools()
            if args.json:
                sys.stdout.write(listed.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
            else:
                for tool in listed.tools:
                    summary = (tool.description or "").split("\n")[0]
                    sys.stdout.write(f"{tool.name}: {tool.title or ''}\n    {summary}\n")
            return 0
        result = await client.call_tool(args.name, arguments)
    if args.json:
        sys.stdout.write(result.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
    else:
        for block in result.content:
            text = getattr(block, "text", None)
            sys.stdout.write((text if text is not None else block.model_dump_json()) + "\n")
        if result.is_error:
            sys.stdout.write("isError: true\n")
    return 1 if result.is_error else 0


async def _serve(settings: Settings, drain_timeout: float | None) -> None:
    from sandbox_server.server import App, build_server

    app = App.create(settings)
    server = build_server(app=app)
    if settings.transport == "http":
        from sandbox_server.http_server import serve_http

        await serve_http(server, app, settings, drain_timeout=drain_timeout)
        return
    from sandbox_server.stdio import serve_stdio

    if drain_timeout is None:
        drain_timeout = settings.max_timeout_ms / 1000 + 5
    await serve_stdio(
        server,
        drain_timeout=drain_timeout,
        backlog=app.backlog,
        max_line_bytes=settings.max_message_bytes,
        max_line_values=settings.max_message_values,
    )


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        _print_versions()
        return 0
    try:
        settings = _settings_from(args)
    except ValidationError as exc:
        problems = "; ".join(_configuration_problem(error, args) for error in exc.errors())
        sys.stderr.write(f"sandbox-server: invalid configuration: {problems}\n")
        return 2
    _configure_logging(settings.log_level if args.command in (None, "serve") else "warning")
    if args.command == "tools":
        arguments = _call_arguments(args)
        if arguments is None:
            return 2
        http_failures = HttpFailures()
        try:
            return anyio.run(_tools_command, args, settings, arguments, http_failures)
        except Exception as exc:
            reason = explain_failure(exc, url=args.url, http=http_failures, token_sent=settings.auth_token is not None)
            sys.stderr.write(f"sandbox-server: {reason}\n")
            return 1
    if args.command == "resources":
        http_failures = HttpFailures()
        try:
            return anyio.run(_resources_command, args, settings, http_failures)
        except Exception as exc:
            reason = explain_failure(exc, url=args.url, http=http_failures, token_sent=settings.auth_token is not None)
            sys.stderr.write(f"sandbox-server: {reason}\n")
            return 1
    anyio.run(_serve, settings, getattr(args, "drain_timeout", None))
    return 0


def main() -> None:
    """Entry point of the ``sandbox-server`` command."""
    sys.exit(run())
