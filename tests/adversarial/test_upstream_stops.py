"""A stop is a stop upstream too: however an execution of ``execute_js_with_tools`` ends early (the client cancels it,
its deadline passes, the code calls ``process.exit``, the worker runs out of memory), every upstream call still in
flight is cancelled at once with ``notifications/cancelled``, so that a server that honours it makes no side effect,
and a result that is still sent says which calls completed and which were cancelled in flight (and so may have been
done anyway by a server that ignores cancellation).

The upstream here (``tests/upstream/servers/effects.py``) waits 3 s before its side effect and writes down whether
``notifications/cancelled`` reached it; the tests wait for what it wrote, never for a fixed time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from ..codemode.conftest import CodeMode, User, code_mode, write_config
from ..upstream.effects_log import effects_server, ended, events, wait_for
from .conftest import SMALL_MEMORY_MB

pytestmark = pytest.mark.anyio

MODES = [pytest.param("auto", id="2026-07-28"), pytest.param("legacy", id="2025-11-25")]
CALL_WAIT_S = 60


@asynccontextmanager
async def effects_code_mode(
    folder: Path, mode: str, transport: str = "stdio", user: User | None = None, **settings: Any
) -> AsyncIterator[tuple[CodeMode, Path]]:
    """Code mode over the effects server, whose tools run without asking (``allow``) unless a ``user`` is given."""
    policy = "confirm" if user is not None else "allow"
    with effects_server(transport, folder, sideEffects=policy) as (entry, log):
        config = write_config(folder, {"effects": entry}, f"effects-{transport}-{mode}.json")
        # A per-call limit far beyond the test: only the execution's end may stop a call here.
        async with code_mode(config, user, client_mode=mode, tool_call_timeout_s=120.0, **settings) as connected:
            yield connected, log


async def run(connected: CodeMode, code: str, **arguments: Any) -> dict[str, Any]:
    with anyio.fail_after(CALL_WAIT_S):
        _, structured = await connected.run(code, **arguments)
    return structured


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("transport", ["stdio", "http"], ids=["upstream-over-stdio", "upstream-over-http"])
@pytest.mark.parametrize(
    "tool",
    [
        pytest.param("transfer", id="side-effecting"),
        # A read-only call used to run on upstream until tool_call_timeout_s.
        pytest.param("lookup", id="read-only"),
    ],
)
async def test_a_client_cancellation_cancels_the_call_upstream_before_its_effect(
    tmp_path: Path, mode: str, transport: str, tool: str
) -> None:
    async with effects_code_mode(tmp_path, mode, transport) as (connected, log):
        code = f"await tools.effects.{tool}({{ id: 'c1', ms: 3000 }})"
        with anyio.fail_after(CALL_WAIT_S):
            async with anyio.create_task_group() as group:
                group.start_soon(connected.run, code)
                await wait_for(log, "c1", {"started"})
                group.cancel_scope.cancel()  # the client gives up: notifications/cancelled to sandbox-server
        end = await ended(log, "c1")
        assert (end["event"], end["notified"]) == ("cancelled", True), events(log, "c1")
        # The server is free for the next call at once, and the cancelled call never made its effect.
        assert await connected.value("await tools.effects.lookup({ id: 'after', ms: 0 })") == "lookup after done"
    assert [event["event"] for event in events(log, "c1")] == ["started", "cancelled"]


@pytest.mark.parametrize("mode", MODES)
async def test_the_deadline_cancels_calls_in_flight_and_the_result_says_which_completed(
    tmp_path: Path, mode: str
) -> None:
    async with effects_code_mode(tmp_path, mode) as (connected, log):
        structured = await run(
            connected,
            "await tools.effects.lookup({ id: 'quick', ms: 0 }); await tools.effects.transfer({ id: 'd1', ms: 20000 })",
            timeout_ms=2000,
        )
    assert structured["error"]["kind"] == "timeout"
    quick, slow = structured["toolCalls"]
    assert (quick["tool"], quick["outcome"], "mayHaveCompleted" in quick) == ("lookup", "ok", False)
    assert (slow["tool"], slow["outcome"], slow["mayHaveCompleted"]) == ("transfer", "cancelled", True)
    end = await ended(log, "d1")
    assert (end["event"], end["notified"]) == ("cancelled", True)


@pytest.mark.parametrize("mode", MODES)
async def test_process_exit_cancels_calls_in_flight(tmp_path: Path, mode: str) -> None:
    async with effects_code_mode(tmp_path, mode) as (connected, log):
        structured = await run(
            connected,
            """
            tools.effects.transfer({ id: 'x1', ms: 20000 }).catch(() => {});
            await tools.effects.until_started({ id: 'x1' });
            process.exit(0);
            """,
            timeout_ms=30_000,
        )
    calls = structured["toolCalls"]
    outcomes = {call["tool"]: (call["outcome"], call.get("mayHaveCompleted", False)) for call in calls}
    assert outcomes == {"transfer": ("cancelled", True), "until_started": ("ok", False)}
    end = await ended(log, "x1")
    assert (end["event"], end["notified"]) == ("cancelled", True)


@pytest.mark.parametrize("mode", MODES)
async def test_running_out_of_memory_cancels_calls_in_flight(tmp_path: Path, mode: str) -> None:
    async with effects_code_mode(tmp_path, mode, memory_limit_mb=SMALL_MEMORY_MB) as (connected, log):
        structured = await run(
            connected,
            """
            tools.effects.transfer({ id: 'm1', ms: 20000 }).catch(() => {});
            await tools.effects.until_started({ id: 'm1' });
            const keep = []; while (true) keep.push(new Array(1e6).fill(1));
            """,
            timeout_ms=30_000,
        )
    assert structured["error"]["kind"] == "memory"
    transfer = next(call for call in structured["toolCalls"] if call["tool"] == "transfer")
    assert (transfer["outcome"], transfer["mayHaveCompleted"]) == ("cancelled", True)
    end = await ended(log, "m1")
    assert (end["event"], end["notified"]) == ("cancelled", True)


@pytest.mark.parametrize("mode", MODES)
async def test_a_server_that_ignores_cancellation_may_still_act_and_the_result_says_it_may_have(
    tmp_path: Path, mode: str
) -> None:
    async with effects_code_mode(tmp_path, mode) as (connected, log):
        code = "await tools.effects.stubborn_transfer({ id: 's1', ms: 3000 })"
        structured = await run(connected, code, timeout_ms=1500)
        # The honest limit: it was told at once, and did it anyway.
        end = await ended(log, "s1")
    assert (end["event"], end["notified"]) == ("effect", True)
    (call,) = structured["toolCalls"]
    assert (call["outcome"], call["mayHaveCompleted"]) == ("cancelled", True)


async def test_a_call_stopped_while_the_user_is_asked_never_reached_the_server_and_says_so(tmp_path: Path) -> None:
    class Silent(User):
        async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
            self.questions.append(params)
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

    user = Silent()
    # Asked by elicitation within the call, which the 2025-11-25 revision carries.
    async with effects_code_mode(tmp_path, "legacy", user=user) as (connected, log):
        structured = await run(connected, "await tools.effects.transfer({ id: 'q1', ms: 0 })", timeout_ms=1500)
    assert len(user.questions) == 1
    (call,) = structured["toolCalls"]
    assert call["outcome"] == "cancelled" and "mayHaveCompleted" not in call
    assert events(log, "q1") == []


@pytest.mark.parametrize("mode", MODES)
async def test_a_session_run_past_its_deadline_cancels_its_calls_in_flight(tmp_path: Path, mode: str) -> None:
    async with effects_code_mode(tmp_path, mode) as (connected, log):
        structured = await run(
            connected, "await tools.effects.transfer({ id: 'k1', ms: 20000 })", timeout_ms=2000, session="kept"
        )
    assert structured["error"]["kind"] == "timeout", structured["error"]
    (call,) = structured["toolCalls"]
    assert (call["outcome"], call["mayHaveCompleted"]) == ("cancelled", True)
    end = await ended(log, "k1")
    assert (end["event"], end["notified"]) == ("cancelled", True)
