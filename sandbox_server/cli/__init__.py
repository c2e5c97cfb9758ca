"""Command line: ``serve`` (the default) runs the server; ``tools list|call`` and ``resources list|read`` talk to one
as a client (:mod:`.client`); ``packages add|list|remove`` manage the npm packages code may import
(:mod:`.packages`). The flags are in :mod:`.flags`, the explanations of a client's failures in
:mod:`.errors`."""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Sequence

import anyio
from pydantic import ValidationError

from sandbox_server.cli.client import call_arguments, resources_command, tools_command
from sandbox_server.cli.errors import HttpFailures, explain_failure
from sandbox_server.cli.flags import build_parser, configuration_problem, settings_from
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
    from sandbox_server.sandbox import engine_versions
    from sandbox_server.server import package_version

    versions = engine_versions()
    sys.stdout.write(f"sandbox-server {package_version()} (mini-racer {versions['miniRacer']}, V8 {versions['v8']})\n")


async def _serve(settings: Settings, drain_timeout: float | None) -> None:
    from sandbox_server.observability.tracing import configure_tracing
    from sandbox_server.server import App, build_server

    configure_tracing()  # exports the SDK's spans when the otel extra is installed and OTEL_* variables ask
    app = App.create(settings)
    server = build_server(app=app)
    # What start-up built lives as long as the process. A full collection traverses all of it (the schema
    # validators of the SDK's models above all: about 80 ms on a quiet machine, several times that while the
    # workers keep the cores busy), stalling every connection; frozen, a collection walks only what calls made.
    gc.freeze()
    if settings.transport == "http":
        from sandbox_server.transport.http import serve_http

        await serve_http(server, app, settings, drain_timeout=drain_timeout)
        return
    from sandbox_server.transport.stdio import serve_stdio

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
    try:
        return _run(argv)
    except ConfigurationError as exc:  # an unusable setting found at start-up (the upstream file, ...)
        sys.stderr.write(f"sandbox-server: {exc}\n")
        return 2


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        _print_versions()
        return 0
    try:
        settings = settings_from(args)
    except ValidationError as exc:
        problems = "; ".join(configuration_problem(error, args) for error in exc.errors())
        sys.stderr.write(f"sandbox-server: invalid configuration: {problems}\n")
        return 2
    if settings.upstream is not None:
        from sandbox_server.upstream.config import load_upstream_config

        load_upstream_config(settings.upstream)  # a broken file is reported here, before any server starts
    _configure_logging(settings.log_level if args.command in (None, "serve") else "warning")
    if args.command == "tools":
        arguments = call_arguments(args)
        if arguments is None:
            return 2
        http_failures = HttpFailures()
        try:
            return anyio.run(tools_command, args, settings, arguments, http_failures)
        except ConfigurationError:
            raise
        except Exception as exc:
            reason = explain_failure(exc, url=args.url, http=http_failures, token_sent=settings.auth_token is not None)
            sys.stderr.write(f"sandbox-server: {reason}\n")
            return 1
    if args.command == "resources":
        http_failures = HttpFailures()
        try:
            return anyio.run(resources_command, args, settings, http_failures)
        except ConfigurationError:
            raise
        except Exception as exc:
            reason = explain_failure(exc, url=args.url, http=http_failures, token_sent=settings.auth_token is not None)
            sys.stderr.write(f"sandbox-server: {reason}\n")
            return 1
    if args.command == "packages":
        from sandbox_server.cli.packages import packages_command

        return packages_command(args, settings)
    if args.command == "upstream":
        from sandbox_server.cli.upstream import upstream_command

        return anyio.run(upstream_command, settings, args.json)
    anyio.run(_serve, settings, getattr(args, "drain_timeout", None))
    return 0


def main() -> None:
    """Entry point of the ``sandbox-server`` command."""
    sys.exit(run())
