"""The MCP server: publishes the registry's tools, validates arguments, maps failures to results.

One call goes: transport -> :func:`build_server`'s ``tools/call`` handler -> argument validation -> the tool's
handler (``sandbox_server.tools``) -> :class:`~sandbox_server.results.ToolResult` -> ``CallToolResult``.

:func:`build_server` puts the server together from small pieces, each a function of the :class:`App`:
:func:`lifespan` (start and stop what the app owns), :class:`RequestLog` (a call's log message, at the level its
client chose), :func:`owner_of` and :func:`consent_for` (who a request belongs to, and how its user can be asked),
:func:`list_tools` and :func:`call_tool`, :func:`resource_handlers` (the data folder's files and the upstream
declarations) and :func:`instructions_for` (the tools' own instruction lines).
"""

from __future__ import annotations

import logging
import time
import warnings
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
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
from sandbox_server.registry import CallContext, Resume, ToolSpec, request_key
from sandbox_server.results import InputRequired, ToolResult
from sandbox_server.sandbox.protocol import well_formed
from sandbox_server.settings import Settings
from sandbox_server.tools.unavailable import unknown_tool
from sandbox_server.upstream.consent import Elicitation
from sandbox_server.upstream.resources import ToolResources

__all__ = [
    "SERVER_NAME",
    "App",
    "RequestLog",
    "build_server",
    "call_tool",
    "consent_for",
    "instructions_for",
    "lifespan",
    "list_tools",
    "owner_of",
    "package_version",
    "resource_handlers",
]


logger = logging.getLogger("sandbox_server")

Context = ServerRequestContext[App]

INSTRUCTIONS_HEADER = "Use these tools instead of computing in your head; their answers are exact."
"""The first line of the server's instructions; each tool's own line follows (:attr:`ToolSpec.instruction`)."""
DATA_FOLDER_INSTRUCTIONS = (
    "The user shared a data folder: its files are listed as resources (sandbox-data:/// URIs). To compute over them, "
    "name them in execute_js's `files` argument (paths or patterns such as `*.csv`) and read the global `files` "
    "instead of copying their contents into `input`."
)
"""The instructions' last paragraph, when the server has a data folder."""


def build_server(settings: Settings | None = None, *, app: App | None = None) -> Server[App]:
    """Create the MCP server; its lifespan starts and stops the JavaScript worker pool.

    Args:
        settings: Configuration; defaults come from the environment (``SANDBOX_*``) and the built-in defaults.
        app: A prepared :class:`App` to serve instead of one built from ``settings``.
    """
    app = app or App.create(settings or Settings())
    log = RequestLog(app.settings)
    with warnings.catch_warnings():
        # logging/setLevel is deprecated in the newest revision but part of 2025-11-25, which this server serves.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        server = Server(
            SERVER_NAME,
            version=package_version(),
            title=SERVER_TITLE,
            description="Exact arithmetic, date math and sandboxed JavaScript (V8) for language models.",
            instructions=instructions_for(app),
            icons=server_icons(),
            lifespan=lifespan(app),
            on_list_tools=list_tools(app),
            on_call_tool=call_tool(app, log),
            on_set_logging_level=log.set_level if log.offers_set_level else None,
            # On 2026-07-28 change notifications ride subscriptions/listen streams only.
            on_subscriptions_listen=app.listeners.listen if app.listeners is not None else None,
            **resource_handlers(app),
        )
    _seal_request_states(server, app)
    _announce_tool_changes(server, app)
    return server


# --- lifespan --------------------------------------------------------------------------------------------------


def lifespan(app: App) -> Callable[[Server[App]], AbstractAsyncContextManager[App]]:
    """The server's lifespan: start the pool, the sessions, the renderer and the upstream servers, and at the end stop
    them all, whatever ends the server."""

    @asynccontextmanager
    async def running(_: Server[App]) -> AsyncIterator[App]:
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

    return running


# --- requests: their revision, their connection, who they belong to ---------------------------------------------


def _modern(ctx: Context) -> bool:
    """Whether the request speaks the current, stateless revision (2026-07-28)."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _connection_of(ctx: Context) -> object:
    """The object that stands for the client connection: the SDK makes a new session object per request, but
    they share the connection, which is where a level chosen with logging/setLevel belongs."""
    return getattr(ctx.session, "_connection", ctx.session)


def _stateless_http(settings: Settings) -> bool:
    """Whether every request is a connection of its own: HTTP without MCP sessions, where each POST may even reach
    another replica, so nothing chosen in one request (a log level, a user's answer) reaches the next."""
    return settings.transport == "http" and not settings.http_sessions


def owner_of(app: App, ctx: Context) -> dict[str, Any]:
    """Who may name sessions for this call (``CallContext.owner``): the one client of a stdio server, or the
    connection of an MCP session over HTTP. Over stateless HTTP nobody is known: a name starts a session, and its
    handle continues it."""
    if _modern(ctx):
        # No connection outlives a request on this revision, but a stdio server has exactly one client.
        return {} if app.settings.transport == "http" else {"owner": app.caller}
    if _stateless_http(app.settings):
        return {}
    return {"owner": _connection_of(ctx)}


def consent_for(app: App, ctx: Context) -> dict[str, Any]:
    """How this request can ask its user to allow an action (for ``execute_js_with_tools``)."""
    if app.upstreams is None:
        return {}
    if _stateless_http(app.settings) and not _modern(ctx):
        return {
            "no_consent_reason": "stateless HTTP has no way to carry the user's answer back (the server must "
            "run with --http-sessions)"
        }
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return {"no_consent_reason": "this client does not offer elicitation, the MCP way to ask its user"}
    if _modern(ctx):
        # No request to the client can go out in the middle of a call: the run pauses and the client calls again.
        return {"pausable": True}
    return {"consent": Elicitation(ctx.session, ctx.request_id)}


def _follow(app: App, ctx: Context) -> None:
    """Note the request's connection, to tell it when the upstream servers' tools change."""
    if app.listeners is not None:
        app.listeners.connections.add(_connection_of(ctx))


# --- logging -----------------------------------------------------------------------------------------------------

_LEVELS: list[types.LoggingLevel] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]


class RequestLog:
    """The log message each tool call sends its client (``notifications/message``), at the level the client chose.

    On 2026-07-28 each request carries its own level in ``_meta``, which the SDK applies, and the message rides that
    request's stream. On 2025-11-25 a connection chooses with ``logging/setLevel``; until it does, only warnings and
    errors are sent. A level chosen that way must outlive the request that chose it, which stateless HTTP cannot do:
    there ``logging/setLevel`` is not offered, and 2025-11-25 requests get no message.
    """

    def __init__(self, settings: Settings) -> None:
        self.offers_set_level = not _stateless_http(settings)
        self._levels: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()

    async def set_level(self, ctx: Context, params: types.SetLevelRequestParams) -> types.EmptyResult:
        """``logging/setLevel``: the level of the messages this connection's calls send from now on."""
        self._levels[_connection_of(ctx)] = _LEVELS.index(params.level)
        return types.EmptyResult()

    async def send(self, ctx: Context, level: types.LoggingLevel, data: dict[str, Any]) -> None:
        """Send ``data`` at ``level`` to the request's client, if its level lets it through."""
        if not self.offers_set_level and not _modern(ctx):
            return
        threshold = 0 if _modern(ctx) else self._levels.get(_connection_of(ctx), _LEVELS.index("warning"))
        if _LEVELS.index(level) < threshold:
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)  # deprecated after 2025-11-25, served here
            # Tied to the request, so that over HTTP the message rides that request's response stream.
            await ctx.session.send_log_message(level, data, logger="sandbox_server", related_request_id=ctx.request_id)


# --- tools -------------------------------------------------------------------------------------------------------


def list_tools(app: App) -> Callable[[Context, types.PaginatedRequestParams | None], Any]:
    """The ``tools/list`` handler: every tool of the registry, as it is now."""

    async def handle(ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        _follow(app, ctx)
        return types.ListToolsResult(tools=[spec.to_mcp() for spec in app.registry])

    return handle


def call_tool(app: App, log: RequestLog) -> Callable[[Context, types.CallToolRequestParams], Any]:
    """The ``tools/call`` handler: find the tool, run it through :meth:`App.call` with the request's context, and
    log, count and answer what it gave."""

    async def handle(
        ctx: Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        _follow(app, ctx)
        spec = _spec_named(app, params.name)
        started = time.perf_counter()
        resume = None
        if params.request_state is not None:
            resume = Resume(params.request_state, dict(params.input_responses or {}))
        answer = await app.call(spec, params.arguments, _call_context(app, ctx, params, resume))
        seconds = time.perf_counter() - started
        if isinstance(answer, InputRequired):
            logger.info("tool=%s outcome=input_required questions=%d", spec.name, len(answer.requests))
            app.telemetry.tool_call(spec.name, "input_required", seconds, resumed=resume is not None)
            return answer.to_mcp()
        result = _encodable(answer)
        outcome = _outcome_label(result)
        logger.info("tool=%s outcome=%s duration_ms=%.1f", spec.name, outcome, seconds * 1000)
        app.telemetry.tool_call(spec.name, outcome, seconds, resumed=resume is not None)
        level: types.LoggingLevel = "warning" if outcome in ("crashed", "internal") else "info"
        await log.send(ctx, level, {"tool": spec.name, "outcome": outcome, "durationMs": round(seconds * 1000, 1)})
        return result.to_mcp()

    return handle


def _spec_named(app: App, name: str) -> ToolSpec:
    """The tool called ``name``; an unknown name is protocol misuse, a JSON-RPC error naming the tools there are (and
    the flag that adds the one called, when a setting would)."""
    spec = app.registry.get(name)
    if spec is None:
        raise MCPError(code=types.INVALID_PARAMS, message=unknown_tool(name, app.registry.names()))
    return spec


def _call_context(app: App, ctx: Context, params: types.CallToolRequestParams, resume: Resume | None) -> CallContext:
    return CallContext(
        report_progress=ctx.session.report_progress,
        progress_requested=_progress_requested(ctx, params),
        resume=resume,
        **consent_for(app, ctx),
        **owner_of(app, ctx),
        # Only stdio's one client starts calls early (App.early_word): its ids name its calls.
        request=request_key(ctx.request_id) if app.settings.transport != "http" else None,
    )


def _encodable(result: ToolResult) -> ToolResult:
    """``result`` as text the transport can encode; otherwise writing it would end the whole connection."""
    return replace(result, text=well_formed(result.text), structured=well_formed(result.structured))


def _progress_requested(ctx: Context, params: types.CallToolRequestParams) -> bool:
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


def _outcome_label(result: ToolResult) -> str:
    """A one-word outcome for logs: ok, or the error kind when the result says it."""
    if not result.is_error:
        return "ok"
    failure = (result.structured or {}).get("error")
    if isinstance(failure, dict) and isinstance(failure.get("kind"), str):
        return str(failure["kind"])
    return result.kind


def instructions_for(app: App) -> str:
    """The server's instructions: a first line, each tool's own line in the order they are listed, and a paragraph on
    the data folder when there is one."""
    lines = [INSTRUCTIONS_HEADER, *(f"- {spec.name}: {spec.instruction}" for spec in app.registry if spec.instruction)]
    if app.folder is not None:
        lines.append(DATA_FOLDER_INSTRUCTIONS)
    return "\n".join(lines)


def _announce_tool_changes(server: Server[App], app: App) -> None:
    """With upstream servers, declare ``tools.listChanged``: execute_js_with_tools follows their tools, so clients
    should expect ``notifications/tools/list_changed``."""
    if app.listeners is None:
        return
    initialization = server.create_initialization_options

    def with_tools_changed(options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
        return initialization(options or NotificationOptions(tools_changed=True), *args, **kwargs)

    server.create_initialization_options = with_tools_changed  # type: ignore[method-assign,assignment]


def _seal_request_states(server: Server[App], app: App) -> None:
    """Seal what paused runs hand the client, and unseal and check what comes back, before any handler sees it; a
    state that does not pass is answered with what to do about it (``journal/problems.py``)."""
    if app.keys is None:
        return
    server.middleware += [
        RequestStateProblems(app.keys.ttl_s),
        RequestStateBoundary(app.keys.request_states, default_audience=SERVER_NAME),
    ]


# --- resources ---------------------------------------------------------------------------------------------------


def resource_handlers(app: App) -> dict[str, Any]:
    """The ``resources/list`` and ``resources/read`` handlers, for a server with a data folder or upstream servers;
    without either there are none, and the capability is not declared. The upstream tools' declarations come first,
    on the first page; the folder's files page after them."""
    files = DataResources(app.folder, app.settings.max_resource_bytes) if app.folder is not None else None
    declared = ToolResources(app.directory) if app.directory is not None else None
    if files is None and declared is None:
        return {}

    async def list_resources(ctx: Context, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        first = params is None or params.cursor is None
        listed = types.ListResourcesResult(resources=[]) if files is None else await files.list(params)
        if declared is not None and first:
            listed.resources = [*declared.list(), *listed.resources]
        return listed

    async def read_resource(ctx: Context, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if declared is not None and (files is None or declared.owns(str(params.uri))):
            return declared.read(str(params.uri))
        assert files is not None
        return await files.read(params)

    return {"on_list_resources": list_resources, "on_read_resource": read_resource}
