"""``GET /metrics``: the server's Prometheus metrics, behind the same bearer token as ``/mcp``.

With ``SANDBOX_AUTH_TOKEN`` set, a scrape must carry it, or ``SANDBOX_METRICS_TOKEN`` when one is set: a token that
opens this endpoint and nothing else, so that the monitoring system never holds a credential that can run code.
With neither set (a server bound to localhost), the endpoint is open, as ``/mcp`` is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sandbox_server.observability import Metrics
from sandbox_server.transport.http.admission import bearer_matches

__all__ = ["METRICS_PATH", "metrics_endpoint"]

METRICS_PATH = "/metrics"


def metrics_endpoint(metrics: Metrics, tokens: list[str]) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint that answers scrapes of ``metrics``; any of ``tokens`` opens it (none: open)."""

    async def scrape(request: Request) -> Response:
        header = request.headers.get("authorization", "").encode("latin-1")
        if tokens and not any(bearer_matches(header, token) for token in tokens):
            return JSONResponse(
                {"error": "Unauthorized: send SANDBOX_METRICS_TOKEN or the server's token as 'Authorization: Bearer'"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer realm="sandbox-server"'},
            )
        body, content_type = metrics.exposition(request.headers.get("accept"))
        return Response(body, media_type=content_type)

    return scrape
