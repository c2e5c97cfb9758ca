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


@pytest.fixture(scope="session")
async def client() -> AsyncIterator[Client]:
    """One server (and worker pool) shared by the tests that only make calls."""
    async with Client(build_server(make_settings()), mode="legacy") as connected:
        yield connected
