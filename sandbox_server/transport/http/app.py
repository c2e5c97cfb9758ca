"""Serving over Streamable HTTP: ``/mcp``, a health endpoint, limits on what clients can hold, a graceful drain.

Two modes:

- **Stateless** (the default): no session lives on a replica, so any replica can answer any request behind a
  plain load balancer. Each POST is answered on its own, as an event stream when the client accepts one (its
  progress notifications, then its result) or as plain JSON. ``logging/setLevel`` cannot outlive the POST that
  sent it, so the logging capability is not offered. A client that initializes gets an ``Mcp-Session-Id`` that
  the server keeps nothing under, only so that its ``notifications/cancelled`` can be matched to its own call.
- **Sessions** (``--http-sessions``): the SDK's session manager keeps each client's session (``Mcp-Session-Id``)
  in this process, so ``logging/setLevel`` holds for the session. A load balancer must then send a session's
  requests to the replica that opened it.

In both, the SDK's transport checks Host and Origin against DNS rebinding; bound beyond localhost the server
refuses to start without a bearer token (see ``Settings``); connections and requests are bounded
(:mod:`.connections`, :mod:`.admission`); and a call whose client
disconnects or cancels it is stopped (:mod:`.cancellation`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import logging
import math
import signal
import socket
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import FrameType

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from sse_starlette.sse import AppStatus
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from sandbox_server.errors import ConfigurationError
from sandbox_server.journal.health import store_health
from sandbox_server.server import App
from sandbox_server.settings import Settings, is_loopback
from sandbox_server.transport.http.admission import Admission, AdmissionLimits
from sandbox_server.transport.http.cancellation import CallCancellation
from sandbox_server.transport.http.connections import ConnectionLimits, guarded_protocol, raise_descriptor_limit
from sandbox_server.transport.http.metrics import METRICS_PATH, metrics_endpoint
from sandbox_server.transport.http.refusals import explain_refusals
from sandbox_server.transport.http.surrogate_marks import RestoredSurrogates

__all__ = ["HEALTH_PATH", "MCP_PATH", "METRICS_PATH", "HttpApp", "build_http_app", "serve_http"]

logger = logging.getLogger(__name__)

MCP_PATH = "/mcp"
HEALTH_PATH = "/healthz"


def _security(settings: Settings) -> TransportSecuritySettings:
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    for host in settings.allowed_hosts:
        hosts += [host, f"{host}:*"]
        origins += [f"https://{host}", f"http://{host}", f"https://{host}:*", f"http://{host}:*"]
    if not is_loopback(settings.host) and not settings.allowed_hosts:
        # Behind a load balancer the Host header is the public name, unknown here; the token guards access.
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


def max_body_bytes(settings: Settings) -> int:
    """The largest request body accepted: room for the largest code and input, JSON-escaped, and the envelope."""
    return settings.max_message_bytes


def _unbuffered(manager: StreamableHTTPSessionManager) -> ASGIApp:
    """The manager's request handler behind its body-size middleware (mcp 2.3).

    That middleware reads the whole body again into a buffer of its own and a copy of it, which stay alive as long
    as the request does: three copies of every body while calls wait for a worker. :class:`Admission` has already
    read the body within the same size limit and hands it on whole, so the manager is entered past it.
    """
    handler = getattr(manager, "_handle_request", None)
    return handler if callable(handler) else manager.handle_request


def _shared_lifespan(
    lifespan: Callable[[Server[App]], AbstractAsyncContextManager[App]],
) -> Callable[[Server[App]], AbstractAsyncContextManager[App]]:
    """``lifespan`` entered once however many session managers enter it, left when the last one leaves."""
    users = 0
    state: App | None = None
    stack = contextlib.AsyncExitStack()

    @asynccontextmanager
    async def shared(server: Server[App]) -> AsyncIterator[App]:
        nonlocal users, state
        if users == 0:
            state = await stack.enter_async_context(lifespan(server))
        users += 1
        try:
            assert state is not None
            yield state
        finally:
            users -= 1
            if users == 0:
                await stack.aclose()

    return shared


class HttpApp:
    """The ASGI application and what the server needs to run and drain it.

    Building one adapts ``server`` for HTTP, once: its lifespan (which starts the worker pool) is shared by the
    session managers, and :class:`CallCancellation` joins its middleware.
    """

    def __init__(self, server: Server[App], app: App, settings: Settings, connections: ConnectionLimits) -> None:
        self.connections = connections
        self.leaving = False
        """Set on SIGTERM with a drain delay: still serving, but telling health checks to send requests elsewhere."""
        sessions = settings.http_sessions
        body_limit = max_body_bytes(settings)
        security = _security(settings)
        server.lifespan = _shared_lifespan(server.lifespan)
        self.cancellation = CallCancellation(route_cancellations=not sessions)
        server.middleware.append(self.cancellation)
        # Outside the request-state boundary, so that the arguments it binds a paused run to are the ones the client
        # sent, whatever replica restores them.
        server.middleware.insert(min(1, len(server.middleware)), RestoredSurrogates())
        # The SSE transport carries a request's notifications before its result; the SDK drops them in its JSON
        # mode (mcp 2.3.0), so that one serves only clients that accept no event stream.
        self._managers = [
            StreamableHTTPSessionManager(
                app=server,
                json_response=False,
                stateless=not sessions,
                security_settings=security,
                max_request_body_size=body_limit,
                session_idle_timeout=settings.http_session_idle_timeout_s if sessions else None,
                max_sessions=settings.http_max_sessions if sessions else None,
            )
        ]
        if not sessions:
            self._managers.append(
                StreamableHTTPSessionManager(
                    app=server,
                    json_response=True,
                    stateless=True,
                    security_settings=security,
                    max_request_body_size=body_limit,
                )
            )
        plain = _unbuffered(self._managers[1]) if len(self._managers) > 1 else None
        self.admission = Admission(
            _unbuffered(self._managers[0]),
            plain,
            AdmissionLimits(
                body_timeout_s=settings.http_body_timeout_s,
                max_body_bytes=body_limit,
                max_body_values=settings.max_message_values,
                sessions=sessions,
                token=settings.auth_token.get_secret_value() if settings.auth_token is not None else None,
                max_streams=settings.http_max_streams,
                stream_max_s=settings.http_stream_max_s,
            ),
            app.backlog,
            connections,
            on_run=functools.partial(app.early_word, start=False),
        )

        async def health(request: Request) -> Response:
            stats = app.pool.stats()
            healthy = stats.get("size", 0) > 0
            # A replica whose state store does not answer cannot serve sessions or resume paused runs: a load balancer
            # checking here sends their calls elsewhere.
            store = await store_health(app.store)
            status = ("ok" if healthy else "starting") if store["ok"] else "store unavailable"
            return JSONResponse(
                {
                    "status": "stopping" if self.leaving else status,
                    "store": store,
                    "pool": stats,
                    "http": {
                        "requestsInProgress": self.admission.in_progress,
                        "requestsRefused": self.admission.refused,
                        "backlog": app.backlog.stats(),
                        "streams": {
                            "open": self.admission.open_streams,
                            "max": self.admission.max_streams,
                            "ended": self.admission.streams_ended,
                        },
                        "connections": connections.stats(),
                    },
                },
                status_code=200 if store["ok"] and not self.leaving else 503,
            )

        routes = Starlette(
            # An instance, not a function: Starlette hands it every method as a plain ASGI application.
            routes=[
                Route(MCP_PATH, endpoint=self.admission),
                Route(HEALTH_PATH, health, methods=["GET"]),
                Route(METRICS_PATH, metrics_endpoint(app.telemetry.metrics, _tokens(settings)), methods=["GET"]),
            ],
            lifespan=lambda _: self._run_managers(),
        )
        self.asgi: ASGIApp = explain_refusals(routes, settings.allowed_hosts)

    @asynccontextmanager
    async def _run_managers(self) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            for manager in self._managers:
                await stack.enter_async_context(manager.run())
            yield


def _tokens(settings: Settings) -> list[str]:
    """The tokens that open ``/metrics``: the server's own and the metrics token, those that are set."""
    return [token.get_secret_value() for token in (settings.auth_token, settings.metrics_token) if token is not None]


def build_http_app(server: Server[App], app: App, settings: Settings) -> HttpApp:
    """The ASGI application: ``/mcp`` (Streamable HTTP, stateless or with sessions) and ``/healthz``."""
    limits = ConnectionLimits(
        max_connections=settings.http_max_connections, header_timeout_s=settings.http_header_timeout_s
    )
    return HttpApp(server, app, settings, limits)


class _DrainingServer(uvicorn.Server):
    """uvicorn's server, with the signal handling a drain needs.

    The first SIGTERM (or SIGINT) starts the drain: no new connections, requests in progress are answered. With a
    drain delay (``http_drain_delay_s``), SIGTERM first turns ``/healthz`` to 503 for that long while requests are
    still served, so that a load balancer stops sending any before the socket closes.
    Another SIGTERM during the drain is logged and changes nothing; SIGKILL remains the way to stop at once (a
    second SIGINT, typed at a terminal, still forces the exit as uvicorn does). The signal is not raised again
    after the drain, so a drained server exits with status 0, as over stdio.
    """

    on_drain: Callable[[], None] = staticmethod(lambda: None)
    on_leave: Callable[[], None] = staticmethod(lambda: None)
    drain_delay_s: float = 0.0
    _leaving: threading.Timer | None = None
    interrupted = False
    """Whether the drain was started by SIGINT (Ctrl-C), after which the command exits as interrupted."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.on_drain()
        await super().shutdown(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if not self.should_exit and self._leaving is None and sig == signal.SIGTERM and self.drain_delay_s > 0:
            # Behind a load balancer: keep serving while its health checks see 503 and take this replica out, so
            # that no request reaches a socket that is closing; then drain as usual.
            logger.info("received signal %d; /healthz answers 503 for %g s, then draining", sig, self.drain_delay_s)
            self.on_leave()
            self._leaving = threading.Timer(self.drain_delay_s, self._drain_now)
            self._leaving.daemon = True
            self._leaving.start()
        elif not self.should_exit and self._leaving is not None and sig == signal.SIGTERM:
            logger.warning("received signal %d again; still leaving (SIGINT drains now, SIGKILL stops at once)", sig)
        elif not self.should_exit:
            logger.info("received signal %d; answering the requests in progress, then exiting", sig)
            self.should_exit = True
            self.interrupted = sig == signal.SIGINT
        elif sig == signal.SIGINT:
            self.force_exit = True
        else:
            logger.warning("received signal %d again; still draining (SIGKILL stops at once)", sig)

    def _drain_now(self) -> None:
        logger.info("draining: answering the requests in progress, then exiting")
        self.should_exit = True


async def serve_http(server: Server[App], app: App, settings: Settings, *, drain_timeout: float | None = None) -> None:
    """Run uvicorn until SIGTERM/SIGINT; requests in progress are answered (within ``drain_timeout``) before exit."""
    http_app = build_http_app(server, app, settings)
    http_app.connections.max_connections = raise_descriptor_limit(settings.http_max_connections, settings.workers)
    # sse-starlette ends every open event stream as soon as uvicorn sees SIGTERM, which would drop the answers of
    # calls in progress; the drain here lets them finish instead.
    if settings.log_level != "debug":
        # The SDK logs every stateless request's teardown at info level.
        logging.getLogger("mcp.server.streamable_http").setLevel(logging.WARNING)
    AppStatus.disable_automatic_graceful_drain()  # type: ignore[no-untyped-call]
    drain_s = settings.max_timeout_ms / 1000 + 5 if drain_timeout is None else drain_timeout
    config = uvicorn.Config(
        http_app.asgi,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        lifespan="on",
        http=guarded_protocol(http_app.connections),
        timeout_graceful_shutdown=math.ceil(drain_s),
        access_log=False,
    )
    uvicorn_server = _DrainingServer(config)

    def drain() -> None:
        http_app.connections.draining = True
        http_app.admission.close_streams()

    uvicorn_server.on_drain = drain
    uvicorn_server.drain_delay_s = settings.http_drain_delay_s

    def leave() -> None:
        http_app.leaving = True

    uvicorn_server.on_leave = leave
    listener = listen(settings.host, settings.port)
    logger.info(
        "serving MCP over HTTP at http://%s:%d%s (%s)",
        settings.host,
        listener.getsockname()[1],
        MCP_PATH,
        "with sessions" if settings.http_sessions else "stateless",
    )
    with listener:
        await uvicorn_server.serve(sockets=[listener])
    if uvicorn_server.interrupted:
        raise KeyboardInterrupt  # drained; the command line reports Ctrl-C and exits 130


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``, before anything starts, so that a port in use or an address that is not
    this machine's is one line naming the flag to change (uvicorn would start the application first, then log it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise ConfigurationError(_bind_problem(host, port, exc)) from exc
    sock.set_inheritable(True)
    return sock


def _bind_problem(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return f"port {port} on {host} is in use by another program: choose another with --port (0 picks a free one)"
    if exc.errno == errno.EACCES:
        return f"port {port} needs privileges this process does not have: choose one above 1023 with --port"
    reason = exc.strerror or str(exc)
    return f"cannot listen on {host}:{port} ({reason}): check --host (an address of this machine, e.g. 127.0.0.1)"
