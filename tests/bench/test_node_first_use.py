"""The Node first-use benchmark's snippets give the answers it checks, through the MCP client, with a data folder."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client

from benchmarks.node_first_use import CASES, SALES
from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    folder = tmp_path_factory.mktemp("bench-node")
    (folder / "sales.csv").write_text(SALES)
    app = App.create(make_settings(workers=1, data_dir=Path(folder)))
    async with Client(build_server(app=app), mode="legacy") as connected:
        yield connected


@pytest.mark.parametrize(("key", "code", "expected"), [(key, code, expected) for key, _, code, expected in CASES])
async def test_each_case_gives_the_answer_the_benchmark_checks(
    client: Client, key: str, code: str, expected: object
) -> None:
    result = await client.call_tool("execute_js", {"code": code})
    assert result.is_error is False, (key, result.content)
    assert result.structured_content is not None
    assert result.structured_content["result"] == expected
