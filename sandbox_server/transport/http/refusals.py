"""What the server says when the SDK's DNS-rebinding protection refuses a request: which header was refused and
which flag accepts it.

The SDK answers a Host header it does not accept with a bare ``421 Invalid Host header`` (and an Origin with
``403 Invalid Origin header``), which leaves the operator of a server behind a proxy or a public name guessing. This
wrapper replaces exactly those two bodies, the check itself staying the SDK's.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["explain_refusals", "refusal_text"]

_SDK_BODIES = {421: b"Invalid Host header", 403: b"Invalid Origin header"}
_HEADERS = {421: b"host", 403: b"origin"}
_REPLACED_HEADERS = frozenset({b"content-length", b"content-type", b"x-content-type-options"})
_MAX_QUOTED = 200
"""Characters of the refused header quoted back, at most."""


def refusal_text(status: int, value: str, allowed: Sequence[str]) -> str:
    """The body of a refusal of the Host (421) or Origin (403) header ``value``."""
    names = ", ".join(["127.0.0.1", "localhost", "[::1]", *allowed])
    header = "Host" if status == 421 else "Origin"
    value = value[:_MAX_QUOTED]
    try:
        name = urlsplit(value if status == 403 else f"//{value}").hostname or ""
    except ValueError:  # not a host name at all
        name = ""
    if ":" in name:
        name = f"[{name}]"
    whose = "addressed to" if status == 421 else "sent by pages of"
    shown = name or "NAME"
    remedy = (
        f"add {shown} to --allowed-hosts (comma-separated, or SANDBOX_ALLOWED_HOSTS)"
        if allowed
        else f"start the server with --allowed-hosts {shown} (or SANDBOX_ALLOWED_HOSTS={shown})"
    )
    return (
        f"Invalid {header} header {value!r}: this server accepts requests {whose} {names} only (protection against "
        f"DNS rebinding). To accept this name, {remedy}.\n"
    )


def explain_refusals(app: ASGIApp, allowed: Sequence[str]) -> ASGIApp:
    """``app``, with the SDK's Host and Origin refusals replaced by :func:`refusal_text`."""

    async def explained(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        held: Message | None = None
        body = b""

        async def sending(message: Message) -> None:
            nonlocal held, body
            if message["type"] == "http.response.start" and message["status"] in _SDK_BODIES:
                held = message  # decided once the body is known: other 403s pass unchanged
                return
            if held is None or message["type"] != "http.response.body":
                await send(message)
                return
            body += message.get("body", b"")
            if message.get("more_body", False):
                return
            start, held = held, None
            status = start["status"]
            if body == _SDK_BODIES[status]:
                value = _header(scope, _HEADERS[status])
                body = refusal_text(status, value, allowed).encode()
                kept = [(key, item) for key, item in start["headers"] if key.lower() not in _REPLACED_HEADERS]
                # The body quotes a header the client chose: plain text, never sniffed as HTML.
                headers = [
                    *kept,
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"content-length", str(len(body)).encode()),
                ]
                start = {**start, "headers": headers}
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await app(scope, receive, sending)

    return explained


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""
