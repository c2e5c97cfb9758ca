"""Command line: ``serve`` (the default) runs the server; ``tools list|call`` and ``resources list|read`` talk to one
as a client (:mod:`.client`); ``packages add|list|remove`` manage the npm packages code may import
(:mod:`.packages`). The flags are in :mod:`.flags`, the explanations of a client's failures in :mod:`.errors`.

Exit statuses: 0 done, 1 a failed call or tool result, 2 a usage or configuration error (one line, never a
traceback), 130 interrupted by Ctrl-C (one line; servers drain and stop their workers on the way out)."""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import anyio
from pydantic import ValidationError

from sandbox_server.cli.client import call_arguments, failed, resources_command, tools_command
from sandbox_server.cli.errors import HttpFailures, explain_failure
from sandbox_server.cli.flags import (
    build_parser,
    configuration_problem,
    misplaced_flags,
    settings_from,
    source_of,
    unknown_variables,
)
from sandbox_server.errors import ConfigurationError
from sandbox_server.settings import Settings

__all__ = ["build_parser", "main", "run", "settings_from"]

logger = logging.getLogger("sandbox_server")


def _configure_logging(level: str) -> None:
    logging.basicConfig(
        stream=sys.stderr,
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # The HTTP client of upstream connections logs each request's full URL at INFO, query string included, where
    # users put tokens: only its warnings are kept.
    for name in ("httpx", "httpx2", "httpcore"):
        logging.getLogger(name).setLevel(max(logging.WARNING, logging.getLogger().level))


def _print_versions() -> None:
    from sandbox_server.identity import DISTRIBUTION, package_version
    from sandbox_server.sandbox import engine_versions

    versions = engine_versions()
    engine = f"mini-racer {versions['miniRacer']}, V8 {versions['v8']}"
    sys.stdout.write(f"sandbox-server {package_version()} (distribution {DISTRIBUTION}; {engine})\n")


TERMINAL_NOTE = (
    "sandbox-server: waiting for an MCP client on stdin (MCP clients start this command themselves); to try it by "
    'hand, run `sandbox-server tools call add --args \'{"a": 1, "b": 2}\'` or `sandbox-server tools list`; '
    "Ctrl-C stops\n"
)
INTERRUPTED = "sandbox-server: interrupted (Ctrl-C); stopped\n"


async def _serve(settings: Settings) -> None:
    from sandbox_server.observability.tracing import configure_tracing
    from sandbox_server.server import App, build_server

    configure_tracing()  # exports the SDK's spans when the otel extra is installed and OTEL_* variables ask
    app = App.create(settings)
    server = build_server(app=app)
    # What start-up built lives as long as the process. A full collection traverses all of it (the schema
    # validators of the SDK's models above all: about 80 ms on a quiet machine, several times that while the
    # workers keep the cores busy), stalling every connection; frozen, a collection walks only what calls made.
    gc.freeze()
    drain_timeout = settings.drain_timeout_s
    if settings.transport == "http":
        from sandbox_server.transport.http import serve_http

        await serve_http(server, app, settings, drain_timeout=drain_timeout)
        return
    from sandbox_server.transport.stdio import serve_stdio

    if drain_timeout is None:
        drain_timeout = settings.max_timeout_ms / 1000 + 5
    if sys.stdin.isatty():
        sys.stderr.write(TERMINAL_NOTE)
    await serve_stdio(
        server,
        drain_timeout=drain_timeout,
        backlog=app.backlog,
        max_line_bytes=settings.max_message_bytes,
        max_line_values=settings.max_message_values,
        on_run=functools.partial(app.early_word, start=True),
        on_answer=app.answered,
    )


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv``; returns the exit status."""
    try:
        return _run(argv)
    except ConfigurationError as exc:  # an unusable setting found at start-up (the upstream file, the port, ...)
        sys.stderr.write(f"sandbox-server: {exc}\n")
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the servers and workers are stopped on the way out
        sys.stderr.write(INTERRUPTED)
        return 130


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        _print_versions()
        return 0
    misplaced = misplaced_flags(args)
    if misplaced:
        parser.error(f"{', '.join(misplaced)}: a flag of serve, which `{args.command}` does not take")
    for warning in unknown_variables(os.environ):
        sys.stderr.write(f"sandbox-server: warning: {warning}\n")
    try:
        settings = settings_from(args)
    except ValidationError as exc:
        problems = "; ".join(configuration_problem(error, args) for error in exc.errors())
        sys.stderr.write(f"sandbox-server: invalid configuration: {problems}\n")
        return 2
    if settings.upstream is not None:
        _check_upstream(settings.upstream, args)
    _configure_logging(settings.log_level if args.command in (None, "serve") else "warning")
    if args.command == "tools":
        calls = call_arguments(args)
        if calls is None:
            return 2
        answered: list[dict[str, object]] = []
        return _client_command(
            args, settings, lambda failures: tools_command(args, settings, calls, failures, answered), answered
        )
    if args.command == "resources":
        return _client_command(args, settings, lambda failures: resources_command(args, settings, failures), [])
    if args.command == "packages":
        from sandbox_server.cli.packages import packages_command

        return packages_command(args, settings)
    if args.command == "upstream":
        from sandbox_server.cli.upstream import upstream_command

        return anyio.run(upstream_command, settings, args.json)
    anyio.run(_serve, settings)
    return 0


def _check_upstream(path: Path, args: argparse.Namespace) -> None:
    """Report a broken or empty upstream file before any server starts."""
    from sandbox_server.upstream.config import load_upstream_config

    if not load_upstream_config(path):
        raise ConfigurationError(
            f"{path} lists no MCP server to connect to (its mcpServers is empty, or every server in it is "
            f"disabled): add one, or leave out {source_of('upstream', args)}"
        )


def _client_command(
    args: argparse.Namespace,
    settings: Settings,
    command: Callable[[HttpFailures], Awaitable[int]],
    answered: list[dict[str, object]],
) -> int:
    """Run a client command; a failure is one line on stderr (and, with --json, one JSON document on stdout)."""
    http_failures = HttpFailures()
    try:
        return anyio.run(command, http_failures)
    except ConfigurationError:
        raise
    except Exception as exc:
        reason = explain_failure(exc, url=args.url, http=http_failures, token_sent=settings.auth_token is not None)
        return failed(args, reason, 1, answered)


def main() -> None:
    """Entry point of the ``sandbox-server`` command."""
    sys.exit(run())
