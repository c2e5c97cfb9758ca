"""The MCP server: publishes the registry's tools, validates arguments, maps failures to results.

One call goes: transport -> :func:`build_server`'s ``tools/call`` handler -> argument validation -> the tool's
handler (``sandbox_server.tools``) -> :class:`~sandbox_server.results.ToolResult` -> ``CallToolResult``.
"""

from __future__ import annotations

import logging
import time
import warnings
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from sandbox_server.app import App
from sandbox_server.data.resources import DataResources
from sandbox_server.icons import server_icons
from sandbox_server.identity import SERVER_NAME, SERVER_TITLE, package_version
from sandbox_server.journal.problems import RequestStateProblems
from sandbox_server.registry import CallContext, Resume
from sandbox_server.results import InputRequired, ToolResult
from sandbox_server.sandbox.protocol import well_formed
from sandbox_server.settings import Settings
from sandbox_server.tools.unavailable import unknown_tool
from sandbox_server.upstream.consent import Elicitation
from sandbox_server.upstream.resources import ToolResources

__all__ = ["SERVER_NAME", "App", "build_server", "package_version"]


logger = logging.getLogger("sandbox_server")

INSTRUCTIONS = """\
Use these tools instead of computing in your head; their answers are exact.
- add: sum of two integers of any size (pass big integers as strings of digits).
- divide: exact decimal division with the reduced fraction, quotient and remainder.
- date_diff: calendar and elapsed difference between two dates or date-times, with business days and time zones.
- execute_js: anything else that needs real computation (aggregating data, big numbers with BigInt, regular \
expressions, parsing, date and time-zone math with Intl or Temporal): write a short JavaScript snippet; its last \
expression (or `return` value) is the result, console.log output is returned too. Pass data in `input`.\
"""
UPSTREAM_INSTRUCTIONS = """
- execute_js_with_tools: the same, and its code can call the tools of the other MCP servers listed in its \
description (`await tools.server.tool(args)`): use it to fetch, filter and join their data in one call instead \
of passing it through the conversation.\
"""
DATA_FOLDER_INSTRUCTIONS = """
The user shared a data folder: its files are listed as resources (sandbox-data:/// URIs). To compute over them, \
name them in execute_js's `files` argument (paths or patterns such as `*.csv`) and read the global `files` \
instead of copying their contents into `input`.\
"""


def build_server(settings: Settings | None = None, *, app: App | None = None) -> Server[App]:
    """Create the MCP server; its lifespan starts and stops the JavaScript worker pool.

    Args:
        settings: Configuration; defaults come from the environment (``SANDBOX_*``) and the built-in defaults.
        app: A prepared :class:`App` to serve instead of one built from ``settings``.
    """
    app = app or App.create(settings or Settings())

    @asynccontextmanager
    async def lifespan(_: Server[App]) -> AsyncIterator[App]:
        await app.pool.start()
        try:
            if app.sessions is not None:
                await app.sessions.start()
            if app.renderer is not None:
                await app.renderer.start(warm=True)  # its first render is paid now, in the background
            if app.upstreams is not None:
                await app.upstreams.start()
            yield app
        finally:
            # Shielded: a shutdown that cancels the server (SIGTERM over stdio) must still end and reap every process
            # the server started, sessions' workers, the renderer and stdio upstreams, not leave them to the kernel.
            with anyio.CancelScope(shield=True):
                try:
                    if app.listeners is not None:
                        app.listeners.close()
                    if app.sessions is not None:
                        await app.sessions.aclose()
                    if app.renderer is not None:
                        await app.renderer.aclose()
                    if app.upstreams is not None:
                        await app.upstreams.aclose()
                finally:
                    await app.pool.aclose()
                    if app.store is not None:
                        await app.store.aclose()

    async def list_tools(
        ctx: ServerRequestContext[App], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        if app.listeners is not None:
            app.listeners.connections.add(_connection_of(ctx))
        return types.ListToolsResult(tools=[spec.to_mcp() for spec in app.registry])

    # Per-connection log level chosen with logging/setLevel; until a client picks one, only warnings and errors
    # are sent as notifications.
    levels: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()

    async def set_logging_level(
        ctx: ServerRequestContext[App], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        levels[_connection_of(ctx)] = _LEVELS.index(params.level)
        return types.EmptyResult()

    # A level chosen with logging/setLevel must outlive the request that chose it, which stateless HTTP cannot do
    # (each POST is a connection of its own); there logging/setLevel is not offered. The current revision needs
    # none of it: each request carries its own level in _meta, and its messages ride that request's stream.
    offers_logging = app.settings.transport != "http" or app.settings.http_sessions

    async def notify_log(ctx: ServerRequestContext[App], level: types.LoggingLevel, data: dict[str, Any]) -> None:
        if not offers_logging and not _modern(ctx):
            return
        # On the newest revision each request opts in with its own level, which the SDK applies.
        threshold = (
            0
            if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
            else levels.get(_connection_of(ctx), _LEVELS.index("warning"))
        )
        if _LEVELS.index(level) >= threshold:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)  # deprecated after 2025-11-25, served here
                # Tied to the request, so that over HTTP the message rides that request's response stream.
                await ctx.session.send_log_message(
                    level, data, logger="sandbox_server", related_request_id=ctx.request_id
                )

    def owner_of(ctx: ServerRequestContext[App]) -> dict[str, Any]:
        """Who may name sessions for this call: the one client of a stdio server, or the connection of an MCP session
        over HTTP. Over stateless HTTP nobody is known: a name starts a session, and its handle continues it."""
        if app.settings.transport == "http" and (not app.settings.http_sessions or _modern(ctx)):
            return {}
        if _modern(ctx):
            return {"owner": app.caller}  # no connection outlives a request, but a stdio server has one client
        return {"owner": _connection_of(ctx)}

    def consent_for(ctx: ServerRequestContext[App]) -> dict[str, Any]:
        """How this request can ask its user to allow an action (for ``execute_js_with_tools``)."""
        if app.upstreams is None:
            return {}
        if app.settings.transport == "http" and not app.settings.http_sessions and not _modern(ctx):
            return {
                "no_consent_reason": "stateless HTTP has no way to carry the user's answer back (the server must "
                "run with --http-sessions)"
            }
        capabilities = ctx.session.client_capabilities
        if capabilities is None or capabilities.elicitation is None:
            return {"no_consent_reason": "this client does not offer elicitation, the MCP way to ask its user"}
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # No request to the client can go out in the middle of a call: the run pauses and the client calls again.
            return {"pausable": True}
        return {"consent": Elicitation(ctx.session, ctx.request_id)}

    async def call_tool(
        ctx: ServerRequestContext[App], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if app.listeners is not None:
            app.listeners.connections.add(_connection_of(ctx))
        spec = app.registry.get(params.name)
        if spec is None:
            raise MCPError(code=types.INVALID_PARAMS, message=unknown_tool(params.name, app.registry.names()))
        started = time.perf_counter()
        resume = None
        if params.request_state is not None:
            resume = Resume(params.request_state, dict(params.input_responses or {}))
        answer = await app.call(
            spec,
            params.arguments,
            CallContext(
                report_progress=ctx.session.report_progress,
                progress_requested=_progress_requested(ctx, params),
                resume=resume,
                **consent_for(ctx),
                **owner_of(ctx),
            ),
        )
        if isinstance(answer, InputRequired):
            logger.info("tool=%s outcome=input_required questions=%d", spec.name, len(answer.requests))
            seconds = time.perf_counter() - started
            app.telemetry.tool_call(spec.name, "input_required", seconds, resumed=resume is not None)
            return answer.to_mcp()
        result = _encodable(answer)
        duration_ms = (time.perf_counter() - started) * 1000
        outcome = _outcome_label(result)
        logger.info("tool=%s outcome=%s duration_ms=%.1f", spec.name, outcome, duration_ms)
        app.telemetry.tool_call(spec.name, outcome, duration_ms / 1000, resumed=resume is not None)
        level: types.LoggingLevel = "warning" if outcome in ("crashed", "internal") else "info"
        await notify_log(ctx, level, {"tool": spec.name, "outcome": outcome, "durationMs": round(duration_ms, 1)})
        return result.to_mcp()

    # The resources capability exists only with a data folder: without one, the catalogue stays as it was.
    # The resources capability exists only with a data folder or upstream servers: without, the catalogue stays as
    # it was. The tool declarations come first, on the first page; the folder's files page after them.
    resource_handlers: dict[str, Any] = {}
    files = DataResources(app.folder, app.settings.max_resource_bytes) if app.folder is not None else None
    declared = ToolResources(app.directory) if app.directory is not None else None
    if files is not None or declared is not None:

        async def list_resources(
            ctx: ServerRequestContext[App], params: types.PaginatedRequestParams | None
        ) -> types.ListResourcesResult:
            first = params is None or params.cursor is None
            listed = types.ListResourcesResult(resources=[]) if files is None else await files.list(params)
            if declared is not None and first:
                listed.resources = [*declared.list(), *listed.resources]
            return listed

        async def read_resource(
            ctx: ServerRequestContext[App], params: types.ReadResourceRequestParams
        ) -> types.ReadResourceResult:
            if declared is not None and (files is None or declared.owns(str(params.uri))):
                return declared.read(str(params.uri))
            assert files is not None
            return await files.read(params)

        resource_handlers = {"on_list_resources": list_resources, "on_read_resource": read_resource}

    with warnings.catch_warnings():
        # logging/setLevel is deprecated in the newest revision but part of 2025-11-25, which this server serves.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        server = Server(
            SERVER_NAME,
            version=package_version(),
            title=SERVER_TITLE,
            description="Exact arithmetic, date math and sandboxed JavaScript (V8) for language models.",
            instructions=INSTRUCTIONS
            + (UPSTREAM_INSTRUCTIONS if app.upstreams is not None else "")
            + (DATA_FOLDER_INSTRUCTIONS if app.folder is not None else ""),
            icons=server_icons(),
            lifespan=lifespan,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=set_logging_level if offers_logging else None,
            # On 2026-07-28 change notifications ride subscriptions/listen streams only.
            on_subscriptions_listen=app.listeners.listen if app.listeners is not None else None,
            **resource_handlers,
        )
    if app.keys is not None:
        # Seal what paused runs hand the client, and unseal and check what comes back, before any handler sees it;
        # a state that does not pass is answered with what to do about it (transport/state.py).
        server.middleware += [
            RequestStateProblems(app.keys.ttl_s),
            RequestStateBoundary(app.keys.request_states, default_audience=SERVER_NAME),
        ]
    if app.listeners is not None:
        # execute_js_with_tools follows the upstream servers' tools: say so in the capabilities, so that clients
        # expect notifications/tools/list_changed.
        initialization = server.create_initialization_options

        def with_tools_changed(options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
            return initialization(options or NotificationOptions(tools_changed=True), *args, **kwargs)

        server.create_initialization_options = with_tools_changed  # type: ignore[method-assign,assignment]
    return server


_LEVELS: list[types.LoggingLevel] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


def _encodable(result: ToolResult) -> ToolResult:
    """``result`` as text the transport can encode; otherwise writing it would end the whole connection."""
    return replace(result, text=well_formed(result.text), structured=well_formed(result.structured))


def _progress_requested(ctx: ServerRequestContext[App], params: types.CallToolRequestParams) -> bool:
    """Whether the caller asked for progress notifications (a progress token)."""
    if params.meta and params.meta.get("progress_token") is not None:
        return True
    # The SDK's in-process client on the current revision calls the handler directly, with no token: its progress
    # callback is on the request's own channel back (mcp 2.3, within the runner's wrapper of it).
    channel = getattr(ctx.session, "_request_outbound", None)
    for _ in range(3):
        if getattr(channel, "_on_progress", None) is not None:
            return True
        channel = getattr(channel, "_inner", None)
    return False


def _modern(ctx: ServerRequestContext[App]) -> bool:
    """Whether the request speaks the current, stateless revision (2026-07-28)."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _connection_of(ctx: ServerRequestContext[App]) -> object:
    """The object that stands for the client connection: the SDK makes a new session object per request, but
    they share the connection, which is where a level chosen with logging/setLevel belongs."""
    return getattr(ctx.session, "_connection", ctx.session)


def _outcome_label(result: ToolResult) -> str:
    """A one-word outcome for logs: ok, or the error kind when the result says it."""
    if not result.is_error:
        return "ok"
    failure = (result.structured or {}).get("error")
    if isinstance(failure, dict) and isinstance(failure.get("kind"), str):
        return str(failure["kind"])
    return result.kind
