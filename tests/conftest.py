"""Shared fixtures: an in-memory MCP client connected to a fresh server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client

from sandbox_server import Settings, build_server


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


def make_settings(**overrides: Any) -> Settings:
    """Settings for tests: two workers, everything else at its default unless overridden."""
    values: dict[str, Any] = {"workers": 2}
    values.update(overrides)
    return Settings(**values)


REVISIONS = ["auto", "legacy"]
"""How the tests' clients connect: ``auto`` speaks the current revision (2026-07-28, stateless, what ``mcp.Client``
does by default), ``legacy`` the handshake one (2025-11-25)."""


@pytest.fixture(scope="session", params=REVISIONS)
async def client(request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    """One server (and worker pool) per revision, shared by the tests that only make calls: each such test runs
    against both."""
    async with Client(build_server(make_settings()), mode=request.param) as connected:
        yield connected
