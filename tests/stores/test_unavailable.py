"""While the state store does not answer (a real Redis, stopped or refusing writes), what needs it is a clear error
and never a wrong answer: a session call did not run, or ran and was not applied, and the handle still names the
state it named; a paused run is not kept or not resumed, and resumes once the store is back; what needs no store
(plain calls, the exact tools) goes on. Both revisions, in process."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..codemode.conftest import User, stdio_server, write_config
from ..conftest import make_settings
from .replicas import KEYS
from .services import Redis, redis_server

pytestmark = pytest.mark.anyio

MODES = pytest.mark.parametrize("mode", ["auto", "legacy"])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Redis]:
    """A Redis this test alone uses, and may stop."""
    with redis_server(tmp_path / "redis") as running:
        yield running


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_STATE_KEYS", KEYS)


class Caller:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, code: str, session: str | None = None, tool: str = "execute_js", **args: Any) -> Any:
        if session is not None:
            args["session"] = session
        result = await self.client.call_tool(tool, {"code": code, **args})
        text = "\n".join(getattr(block, "text", "") for block in result.content)
        return {"ok": not result.is_error, **(result.structured_content or {}), "text": text}


@asynccontextmanager
async def caller(mode: str, store: str, **settings: Any) -> AsyncIterator[Caller]:
    app = App.create(make_settings(workers=1, state_store=store, **settings))
    async with Client(build_server(app=app), mode=mode, elicitation_callback=User()) as client:
        yield Caller(client)


@MODES
async def test_a_session_call_whose_state_cannot_be_kept_is_not_applied(mode: str, own_redis: Redis) -> None:
    async with caller(mode, own_redis.url) as one:
        first = await one.call("var n = 1; n", "s")
        handle = first["session"]["handle"]
        own_redis.refuse_writes(True)
        lost = await one.call("n += 1", handle)
        assert lost["ok"] is False and lost["error"]["kind"] == "store"
        assert "out of memory" in lost["error"]["message"]
        assert "The code ran, but the state after it could not be kept, so the call was not applied" in lost["text"]
        own_redis.refuse_writes(False)
        # The isolate that ran the lost call was let go: the handle's state is rebuilt as it was, without it.
        again = await one.call("n += 10", handle)
        assert again["ok"], again["text"]
        assert again["result"] == 11 and again["session"]["rebuilt"] is True


@MODES
async def test_while_the_store_is_down_session_calls_do_not_run_and_other_calls_go_on(
    mode: str, own_redis: Redis
) -> None:
    async with caller(mode, own_redis.url) as one:
        first = await one.call("var n = 1; n", "s")
        own_redis.stop()
        with anyio.fail_after(60):
            started = await one.call("globalThis.ran = true; 1", "other")
            assert started["error"]["kind"] == "store"
            assert "The code did not run; call again once the store answers" in started["text"]
            assert f"redis://127.0.0.1:{own_redis.port}/0" in started["error"]["message"]
            assert (await one.call("6 * 7"))["result"] == 42
            added = await one.client.call_tool("add", {"a": "2", "b": "40"})
            assert added.structured_content is not None and added.structured_content["result"] == "42"
        own_redis.start()
        assert (await one.call("n + 1", first["session"]["handle"]))["result"] == 2


@pytest.fixture
def config(tmp_path: Path) -> Path:
    return write_config(tmp_path, {"writes": stdio_server("writes", sideEffects="confirm")})


def accept(paused: types.InputRequiredResult) -> dict[str, types.ElicitResult]:
    assert paused.input_requests
    return {key: types.ElicitResult(action="accept", content={"allow": True}) for key in paused.input_requests}


async def test_a_paused_run_is_not_resumed_while_the_store_is_down_and_resumes_once_it_is_back(
    config: Path, own_redis: Redis
) -> None:
    code = "await tools.writes.delete_record({ id: 9 }); (await tools.writes.deleted()).ids"
    async with caller("auto", own_redis.url, upstream=config) as one:
        session = one.client.session
        paused = await session.call_tool("execute_js_with_tools", {"code": code}, allow_input_required=True)
        assert isinstance(paused, types.InputRequiredResult)
        own_redis.stop()
        with anyio.fail_after(60):
            refused = await session.call_tool(
                "execute_js_with_tools",
                {"code": code},
                input_responses=accept(paused),
                request_state=paused.request_state,
                allow_input_required=True,
            )
        assert isinstance(refused, types.CallToolResult) and refused.is_error
        text = "\n".join(getattr(block, "text", "") for block in refused.content)
        assert "cannot be resumed now" in text and "Nothing ran; send the same answer again" in text
        own_redis.start()
        done = await session.call_tool(
            "execute_js_with_tools",
            {"code": code},
            input_responses=accept(paused),
            request_state=paused.request_state,
            allow_input_required=True,
        )
        assert isinstance(done, types.CallToolResult) and done.structured_content is not None
        assert done.structured_content["result"] == [9]  # it ran once, now


async def test_a_run_whose_journal_must_wait_in_the_store_cannot_pause_while_it_is_down(
    tmp_path: Path, own_redis: Redis
) -> None:
    config = write_config(
        tmp_path,
        {
            "ledger": stdio_server("writes", sideEffects="allow"),
            "writes": stdio_server("writes", sideEffects="confirm"),
        },
    )
    # The record the ledger answers, random text, is larger than a request state carries, even compressed: the
    # journal has to wait in the store.
    code = """
    const name = Array.from({ length: 4000 }, () => crypto.randomUUID()).join('');
    await tools.ledger.create_record({ name });
    await tools.writes.delete_record({ id: 1 });
    """
    async with caller("auto", own_redis.url, upstream=config) as one:
        own_redis.stop()
        with anyio.fail_after(60):
            refused = await one.call(code, tool="execute_js_with_tools")
        assert refused["ok"] is False
        assert "needs the user's consent, but the paused run cannot be kept" in refused["text"]
        assert "Redis state store" in refused["text"]
        own_redis.start()
        assert (await one.call("(await tools.writes.deleted()).ids", tool="execute_js_with_tools"))["result"] == []
