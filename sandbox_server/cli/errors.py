"""What the ``tools`` commands say when a call fails: the server's or the network's own words.

The MCP client runs its transport in task groups, so a failure reaches the command wrapped in one or more
``ExceptionGroup``s whose own message ("unhandled errors in a TaskGroup") says nothing. This module unwraps them
and names the cause: a JSON-RPC error the server sent (an unknown tool, with the known names), a refused or
unresolvable connection (with the URL), or an HTTP status such as 401 (with what to set).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx2
from mcp.shared.exceptions import MCPError

__all__ = ["HttpFailures", "explain_failure"]


class HttpFailures:
    """Remembers the HTTP error statuses a client received, as an ``httpx2`` response hook."""

    def __init__(self) -> None:
        self.statuses: list[tuple[int, str]] = []

    async def __call__(self, response: httpx2.Response) -> None:
        # Only the POSTs carry calls; a refused optional GET (the event stream) is no failure of the call.
        if response.status_code >= 400 and response.request.method == "POST":
            self.statuses.append((response.status_code, response.reason_phrase))

    def attach(self, client: httpx2.AsyncClient) -> None:
        """Watch every response ``client`` receives."""
        client.event_hooks = {**client.event_hooks, "response": [*client.event_hooks["response"], self]}


def _leaves(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _leaves(inner)
    else:
        yield error


def _causes(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it was raised from or during, including the members of groups along the way."""
    seen: set[int] = set()
    pending = [error]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.extend(link for link in (current.__cause__, current.__context__) if link is not None)


def _http_status(status: int, reason: str, url: str | None, token_sent: bool) -> str:
    if status == 401:
        if token_sent:
            return "401: the server rejected the bearer token (check SANDBOX_AUTH_TOKEN)"
        return "401: the server requires a bearer token (set SANDBOX_AUTH_TOKEN)"
    if status == 404:
        return f"404 Not Found: {url} is not an MCP endpoint (this server's is at /mcp)"
    return f"HTTP {status} {reason} from {url}"


def explain_failure(
    error: BaseException, *, url: str | None = None, http: HttpFailures | None = None, token_sent: bool = False
) -> str:
    """One line saying why a ``tools`` command failed, from the error it raised and the HTTP statuses seen."""
    status = http.statuses[-1] if http is not None and http.statuses else None
    # These statuses come before any JSON-RPC answer; others carry one, whose message says more.
    if status is not None and (status[0] in (401, 403, 404) or status[0] >= 500):
        return _http_status(*status, url, token_sent)
    leaves = [leaf for leaf in _leaves(error) if isinstance(leaf, Exception)]
    where = url or "the server"
    for leaf in leaves:
        if isinstance(leaf, MCPError):
            return f"the server answered with an error: {leaf.message} (JSON-RPC error {leaf.code})"
        causes = list(_causes(leaf))
        if any(isinstance(cause, ConnectionRefusedError) for cause in causes):
            return f"cannot connect to {where}: connection refused (is the server running and listening there?)"
        resolution = next((cause for cause in causes if isinstance(cause, socket.gaierror)), None)
        if resolution is not None:
            return f"cannot connect to {where}: the host name does not resolve ({resolution.strerror})"
        if isinstance(leaf, httpx2.TimeoutException | TimeoutError):
            return f"no answer from {where} in time"
        if isinstance(leaf, httpx2.TransportError):
            return f"cannot reach {where}: {leaf}"
    if status is not None:
        return _http_status(*status, url, token_sent)
    described = [f"{type(leaf).__name__}: {leaf}" if str(leaf) else type(leaf).__name__ for leaf in leaves]
    return "; ".join(described) or str(error)
