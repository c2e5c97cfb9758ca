"""Servers to attack, and calls whose every answer is checked the way a transport would send it.

Each module gets its own server (two workers, defaults otherwise) so that an attack cannot reach into
another module's tests; the memory cases get a server with a small memory limit, so that exhausting it
is quick. Every case ends by checking that the server still computes right answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server, platform
from sandbox_server.server import App

from ..conftest import make_settings

RESERVES_ONLY = pytest.mark.skipif(
    platform.NAME == "portable",
    reason="the code reserves memory it never touches: without an operating-system data limit (the portable "
    "platform) only memory in use is counted, and this uses none",
)
"""For memory bombs that only reserve memory: a limit on the data size refuses them, the memory watch need not."""

CALL_WAIT_S = 60
"""Upper bound of any one call, far above what each case needs (the largest time limit used is 20 s)."""

SMALL_MEMORY_MB = 64
"""Memory limit of the server the memory cases attack."""


@dataclass(frozen=True, slots=True)
class Call:
    """One answered ``execute_js`` call."""

    text: str
    structured: dict[str, Any]
    is_error: bool

    @property
    def error(self) -> dict[str, Any]:
        """The error object; fails the test when the call succeeded."""
        failure = self.structured["error"]
        assert isinstance(failure, dict), f"expected an error, got {self.text[:300]!r}"
        return failure

    @property
    def kind(self) -> str | None:
        """The error kind, or None on success."""
        failure = self.structured.get("error")
        return None if failure is None else str(failure["kind"])


@dataclass(frozen=True, slots=True)
class Sandbox:
    """A running server and an in-memory MCP client connected to it."""

    client: Client
    app: App

    async def run(self, code: str, **arguments: Any) -> Call:
        """Call ``execute_js`` with ``code`` and further arguments."""
        return await self.call({"code": code, **arguments})

    async def call(self, arguments: dict[str, Any]) -> Call:
        """Call ``execute_js`` with exactly ``arguments``, bounded in time."""
        with anyio.fail_after(CALL_WAIT_S):
            result = await self.client.call_tool("execute_js", arguments)
        # What the stdio and HTTP transports do with every result; one that cannot be serialised as UTF-8
        # JSON would end the connection instead of answering.
        result.model_dump_json(by_alias=True, exclude_unset=True)
        assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
        assert isinstance(result.structured_content, dict)
        return Call(result.content[0].text, result.structured_content, bool(result.is_error))

    async def assert_still_serving(self) -> None:
        """Two calls at once (so both workers answer when both are free) compute the right values."""
        answers: dict[int, Any] = {}

        async def ask(n: int) -> None:
            answers[n] = (await self.run(f"[{n}, 2n ** 70n, 'ok'.repeat(2)]")).structured.get("result")

        async with anyio.create_task_group() as group:
            for n in (1, 2):
                group.start_soon(ask, n)
        assert answers == {n: [n, "1180591620717411303424", "okok"] for n in (1, 2)}


async def _serve(**overrides: Any) -> AsyncIterator[Sandbox]:
    app = App.create(make_settings(**overrides))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield Sandbox(client, app)


@pytest.fixture(scope="module")
async def sandbox() -> AsyncIterator[Sandbox]:
    """A two-worker server with the default limits, shared by the tests of a module."""
    async for started in _serve():
        yield started


@pytest.fixture(scope="module")
async def small_sandbox() -> AsyncIterator[Sandbox]:
    """A two-worker server whose executions may use only :data:`SMALL_MEMORY_MB` MiB."""
    async for started in _serve(memory_limit_mb=SMALL_MEMORY_MB):
        yield started
