"""Serving over Streamable HTTP: stateless ``/mcp``, a health endpoint, bearer tokens and Host checks.

Stateless means any replica can answer any request, so several servers can sit behind a plain load balancer.
The SDK's transport guards against DNS rebinding by checking the Host and Origin headers; bound beyond
localhost, the server refuses to start without a bearer token (see ``Settings``), and every ``/mcp`` request
must carry it.
"""

from __future__ import annotations

import hmac
import logging
from typing import Any

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from sandbox_server.server import App
from sandbox_server.settings import Settings, is_loopback

__all__ = ["HEALTH_PATH", "MCP_PATH", "build_http_app", "serve_http"]

logger = logging.getLogger(__name__)

MCP_PATH = "/mcp"
HEALTH_PATH = "/healthz"


class BearerTokenMiddleware:
    """Rejects requests to the MCP endpoint that lack ``Authorization: Bearer <token>``."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self._app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(MCP_PATH):
            given = dict(scope.get("headers", [])).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                response = JSONResponse(
                    {"error": "unauthorized", "message": "send the server's token as 'Authorization: Bearer <token>'"},
                    status_code=401,
                    headers={"WWW-Authenticate": 'Bearer realm="sandbox-server"'},
                )
                await response(scope, receive, send)
                return
        await self._app(scope, receive, send)


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


def build_http_app(server: Server[App], app: App, settings: Settings) -> ASGIApp:
    """The ASGI application: ``/mcp`` (Streamable HTTP, stateless) and ``/healthz``."""

    async def health(request: Request) -> Response:
        stats = app.pool.stats()
        healthy = stats.get("size", 0) > 0
        return JSONResponse({"status": "ok" if healthy else "starting", "pool": stats}, status_code=200)

    starlette_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=_security(settings),
        host=settings.host,
        custom_starlette_routes=[Route(HEALTH_PATH, health, methods=["GET"])],
    )
    if settings.auth_token is not None:
        return BearerTokenMiddleware(starlette_app, settings.auth_token.get_secret_value())
    return starlette_app


async def serve_http(server: Server[App], app: App, settings: Settings) -> None:
    """Run uvicorn until SIGTERM/SIGINT; requests in progress are answered before it exits."""
    config = uvicorn.Config(
        build_http_app(server, app, settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        lifespan="on",
        timeout_graceful_shutdown=max(5, settings.max_timeout_ms // 1000 + 5),
        access_log=False,
    )
    uvicorn_server: Any = uvicorn.Server(config)
    logger.info("serving MCP over HTTP at http://%s:%d%s", settings.host, settings.port, MCP_PATH)
    await uvicorn_server.serve()
