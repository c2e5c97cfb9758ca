"""Serving MCP over Streamable HTTP.

One request goes: uvicorn's h11 protocol with connection limits (:mod:`.connections`) -> the ASGI app (:mod:`.app`)
-> admission: token, method, protocol version, memory budget, body (:mod:`.admission`) -> the SDK's session manager
-> the server, whose middleware stops a call whose client left or cancelled it (:mod:`.cancellation`).
"""

from __future__ import annotations

from sandbox_server.transport.http.app import HEALTH_PATH, MCP_PATH, HttpApp, build_http_app, max_body_bytes, serve_http

__all__ = ["HEALTH_PATH", "MCP_PATH", "HttpApp", "build_http_app", "max_body_bytes", "serve_http"]
