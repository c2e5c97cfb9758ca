"""A config file that lists this server among its own upstreams (a desktop client's file, passed whole) never makes
it start itself: that entry is listed unavailable with the reason, no copy of the server is started, and the other
servers work."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ..codemode.conftest import CodeMode, code_mode, stdio_server, write_config

pytestmark = pytest.mark.anyio

REVISIONS = [pytest.param("auto", id="2026-07-28"), pytest.param("legacy", id="2025-11-25")]


@pytest.mark.parametrize("client_mode", REVISIONS)
async def test_an_entry_that_starts_this_server_is_unavailable_and_never_started(
    tmp_path: Path, client_mode: str
) -> None:
    starts_itself = {
        "command": sys.executable,
        "args": ["-m", "sandbox_server", "--upstream", str(tmp_path / "loop.json")],
    }
    config = write_config(tmp_path, {"myself": starts_itself, "records": stdio_server("records")}, "loop.json")
    connected: CodeMode
    async with code_mode(config, client_mode=client_mode) as connected:  # type: ignore[arg-type]
        description = (await connected.tool()).description or ""
        value = await connected.value(
            """
            let error;
            try { await tools.myself.list_records(); } catch (e) { error = [e.code, e.message]; }
            [error, (await tools.records.list_records({ limit: 1 })).total]
            """
        )
        upstream = connected.app.upstreams["myself"]  # type: ignore[index]
    assert "tools.myself: unavailable (key 'command' starts this server itself (it runs python -m sandbox_server)" in (
        description
    )
    assert value[0][0] == "unavailable" and "starts this server itself" in value[0][1]
    assert value[1] == 1
    assert upstream.state == "unavailable" and not upstream.tools
