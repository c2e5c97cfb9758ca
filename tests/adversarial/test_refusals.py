"""The explained Host and Origin refusals quote a header the client chose: as capped plain text that no browser
sniffs as HTML, and only in place of the SDK's own two refusals, whose check stays the SDK's."""

from __future__ import annotations

import httpx2
import pytest
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from sandbox_server.transport.http.refusals import explain_refusals

pytestmark = pytest.mark.anyio

SCRIPT = "<script>alert(document.cookie)</script>"


def guarded_app() -> Starlette:
    """An endpoint behind the SDK's own DNS-rebinding check, as the server's /mcp is, with the explanation around."""
    security = TransportSecurityMiddleware(
        TransportSecuritySettings(
            enable_dns_rebinding_protection=True, allowed_hosts=["127.0.0.1:*"], allowed_origins=["http://127.0.0.1:*"]
        )
    )

    async def endpoint(request: Request) -> Response:
        refused = await security.validate_request(request, is_post=request.method == "POST")
        if refused is not None:
            return refused
        if request.query_params.get("own") == "403":
            return PlainTextResponse("Invalid Origin header, said the application", status_code=403)
        return PlainTextResponse("ok")

    return Starlette(routes=[Route("/mcp", endpoint, methods=["GET", "POST"])])


async def get(headers: dict[str, str], path: str = "/mcp") -> httpx2.Response:
    transport = httpx2.ASGITransport(app=explain_refusals(guarded_app(), []))
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        return await http.get(path, headers=headers)


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        pytest.param({"Host": SCRIPT + "x" * 500}, 421, id="host"),
        pytest.param({"Origin": "https://" + SCRIPT + "y" * 500}, 403, id="origin"),
    ],
)
async def test_a_refused_header_is_quoted_back_as_capped_plain_text_never_as_html(
    headers: dict[str, str], status: int
) -> None:
    answer = await get(headers)
    assert answer.status_code == status
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert int(answer.headers["content-length"]) == len(answer.content)
    assert "--allowed-hosts" in answer.text
    assert "x" * 201 not in answer.text and "y" * 201 not in answer.text


async def test_only_the_sdks_own_refusals_are_replaced() -> None:
    own = await get({}, "/mcp?own=403")
    assert (own.status_code, own.text) == (403, "Invalid Origin header, said the application")
    allowed = await get({})
    assert (allowed.status_code, allowed.text) == (200, "ok")
