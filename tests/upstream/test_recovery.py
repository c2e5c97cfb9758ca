"""Upstreams recover: a server that failed its handshake (no answer to ``initialize``, a ``tools/list`` that breaks
the schema, an HTTP endpoint that never answers) is tried again when code next calls it, each attempt bounded by the
connect timeout, so a dead server costs a call seconds, never the call's own ``tool_call_timeout_s``; and one that
comes back is used, by calls, ``$describe`` and ``$search`` alike."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import STOP_GRACE_S

from ..codemode.conftest import code_mode, write_config
from .test_connection import REPO, connected, failure, stdio_config

pytestmark = pytest.mark.anyio

CONNECT_S = 1.0
CALL_S = 600.0
"""The per-call limit, far beyond any bound here: a call that waited for it would fail the test's own bound."""
RETRY_BOUND_S = CONNECT_S + STOP_GRACE_S + 10
"""What one call that retries may take at most: stopping the previous attempt, one handshake, and a margin."""
START_S = 8.0
"""The connect timeout where a real server must start in time (a Python process importing the SDK, on a busy
machine)."""


def counter(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        pytest.param("hang", f"no answer to the MCP handshake within {CONNECT_S:g} s", id="never-answers-initialize"),
        pytest.param(
            "badlist", "does not follow the MCP schema: tools.0.inputSchema", id="tools-list-fails-validation"
        ),
    ],
)
async def test_a_server_that_failed_its_handshake_is_tried_again_by_the_next_call_within_the_connect_timeout(
    tmp_path: Path, mode: str, reason: str
) -> None:
    counts = tmp_path / "starts"
    config = stdio_config("dead", "broken", "--mode", mode, "--count-file", str(counts))
    async with connected(config, connect_timeout_s=CONNECT_S) as upstreams:
        upstream = upstreams["dead"]
        assert upstream.state == "unavailable" and reason in (upstream.reason or "")
        assert counter(counts) == 1
        with anyio.fail_after(RETRY_BOUND_S):
            retried = await failure(upstream, "anything", timeout_s=CALL_S)
        assert retried.reason == "unavailable" and reason in retried.message
        assert counter(counts) == 2, "the call did not try the server again"
        with anyio.fail_after(RETRY_BOUND_S):
            during = await failure(upstream, "anything", timeout_s=CALL_S)
        assert "next attempt in" in during.message and counter(counts) == 2, "back-off: the next call fails at once"


@contextmanager
def silent_endpoint() -> Iterator[str]:
    """An HTTP URL whose server accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"


async def test_an_http_server_that_never_answers_costs_a_retrying_call_only_the_connect_timeout() -> None:
    with silent_endpoint() as url:
        config = ServerConfig(name="silent", transport="http", url=url)
        async with connected(config, connect_timeout_s=CONNECT_S) as upstreams:
            upstream = upstreams["silent"]
            assert upstream.state == "unavailable"
            with anyio.fail_after(RETRY_BOUND_S):
                retried = await failure(upstream, "anything", timeout_s=CALL_S)
            assert retried.reason == "unavailable"
            assert f"no answer to the MCP handshake within {CONNECT_S:g} s" in retried.message


def comes_back(folder: Path, first: str) -> dict[str, object]:
    """A server whose first start fails (``first``: a mode of the broken server) and whose later starts work."""
    marker = folder / f"started-once-{first}"
    script = (
        f"test -f {marker} && exec {sys.executable} -m tests.upstream.servers.records; "
        f"touch {marker}; exec {sys.executable} -m tests.upstream.servers.broken --mode {first}"
    )
    return {"command": "sh", "args": ["-c", script], "cwd": str(REPO)}


@pytest.mark.parametrize("first", ["hang", "badlist", "exit"])
async def test_a_server_whose_first_handshake_failed_answers_the_next_call(tmp_path: Path, first: str) -> None:
    config = write_config(tmp_path, {"flaky": comes_back(tmp_path, first)})
    async with code_mode(config, upstream_connect_timeout_s=START_S, tool_call_timeout_s=CALL_S) as connected_:
        assert "tools.flaky: unavailable (" in ((await connected_.tool()).description or "")
        with anyio.fail_after(START_S + STOP_GRACE_S + 10):
            assert await connected_.value("(await tools.flaky.list_records({ limit: 2 })).total") == 2


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("await tools.$describe('flaky')", "list_records", id="describe-the-server"),
        pytest.param("await tools.$describe('flaky.get_record')", "get_record", id="describe-a-tool"),
        pytest.param(
            "(await tools.$search('records')).map((hit) => hit.server + '.' + hit.name).join(' ')",
            "flaky.list_records",
            id="search",
        ),
    ],
)
async def test_describe_and_search_try_a_failed_server_again_too(tmp_path: Path, code: str, expected: str) -> None:
    config = write_config(tmp_path, {"flaky": comes_back(tmp_path, "exit")})
    async with code_mode(config, upstream_connect_timeout_s=START_S, tool_call_timeout_s=CALL_S) as connected_:
        with anyio.fail_after(START_S + STOP_GRACE_S + 10):
            assert expected in await connected_.value(code)
