"""Sessions under test: one server (App) and as many client connections to it as a test needs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App
from sandbox_server.transport.http.app import _shared_lifespan

from ..conftest import make_settings


@dataclass
class Connection:
    client: Client

    async def call(self, code: str, session: str | None = "s", **arguments: Any) -> dict[str, Any]:
        if session is not None:
            arguments["session"] = session
        result = await self.client.call_tool("execute_js", {"code": code, **arguments})
        assert result.structured_content is not None, result
        structured = dict(result.structured_content)
        structured["text"] = "\n".join(getattr(block, "text", "") for block in result.content)
        return structured

    async def value(self, code: str, session: str | None = "s", **arguments: Any) -> Any:
        structured = await self.call(code, session, **arguments)
        assert structured["ok"], structured["text"]
        return structured.get("result")


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


Connect = Callable[[], AbstractAsyncContextManager[Connection]]


@dataclass
class Server:
    app: App
    connect: Connect


@asynccontextmanager
async def sessions_server(**settings: Any) -> AsyncIterator[Server]:
    app = App.create(make_settings(workers=1, **settings))
    shared = build_server(app=app)
    # One server, several client connections (as over HTTP with sessions): its lifespan (the pool and the session
    # manager) is entered once for all of them.
    shared.lifespan = _shared_lifespan(shared.lifespan)

    @asynccontextmanager
    async def connect() -> AsyncIterator[Connection]:
        async with Client(shared, mode="legacy") as client:
            yield Connection(client)

    async with connect() as first:
        del first
        yield Server(app, connect)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[Server]:
    async with sessions_server(max_sessions=6, max_sessions_per_client=3) as running:
        yield running
