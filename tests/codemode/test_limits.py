"""The limits of code mode hold whatever the upstreams do: calls per execution, calls at once, the per-call time
limit, result sizes, the execution's own deadline (which cancels what is in flight upstream), and a server that dies
in the middle of a call."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from .conftest import CodeMode, code_mode, stdio_server, write_config

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def limited(upstream_dir: Path) -> AsyncIterator[CodeMode]:
    config = write_config(upstream_dir, {"records": stdio_server("records")}, "limits.json")
    async with code_mode(
        config,
        max_tool_calls=12,
        max_calls_in_flight=3,
        tool_call_timeout_s=2.0,
        max_tool_result_bytes=100_000,
        max_tool_argument_bytes=4_096,
    ) as connected:
        yield connected


def overlapping(calls: list[dict[str, float]]) -> int:
    """The most calls in progress at one moment, from their start times and durations."""
    events = sorted(
        [(call["startedMs"], 1) for call in calls] + [(call["startedMs"] + call["durationMs"], -1) for call in calls],
        key=lambda event: (event[0], event[1]),
    )
    running = most = 0
    for _, change in events:
        running += change
        most = max(most, running)
    return most


async def test_promise_all_runs_calls_concurrently_up_to_the_in_flight_limit(limited: CodeMode) -> None:
    _, structured = await limited.run(
        "await Promise.all(Array.from({ length: 9 }, () => tools.records.slow({ ms: 300 })))"
    )
    assert structured["ok"], structured["error"]
    calls = structured["toolCalls"]
    assert len(calls) == 9 and all(call["outcome"] == "ok" for call in calls)
    assert overlapping(calls) == 3


async def test_calls_past_the_limit_fail_naming_the_setting(limited: CodeMode) -> None:
    value = await limited.value(
        """
        const ids = Array.from({ length: 20 }, (_, i) => i + 1);
        const all = await Promise.allSettled(ids.map((id) => tools.records.get_record({ id })));
        const failed = all.filter((r) => r.status === 'rejected');
        [all.length - failed.length, failed.length, failed[0].reason.name, failed[0].reason.message]
        """
    )
    assert value[:3] == [12, 8, "ToolError"]
    assert "max_tool_calls" in value[3]


async def test_a_call_over_its_time_limit_is_cancelled_upstream(limited: CodeMode) -> None:
    before = await limited.value("await tools.records.cancelled_count()")
    _, structured = await limited.run("await tools.records.slow({ ms: 20000 })")
    assert structured["ok"] is False
    assert "tool_call_timeout_s" in structured["error"]["message"]
    assert structured["toolCalls"][0]["outcome"] == "timeout"
    after = await limited.value("await tools.records.cancelled_count()")
    assert after["cancelled"] == before["cancelled"] + 1


async def test_a_result_over_the_size_limit_fails_naming_the_setting(limited: CodeMode) -> None:
    _, structured = await limited.run("await tools.records.huge({ bytes: 200000 })")
    assert structured["ok"] is False
    assert "max_tool_result_bytes" in structured["error"]["message"]
    assert structured["toolCalls"][0]["outcome"] == "too_large"
    assert await limited.value("(await tools.records.huge({ bytes: 50000 })).length") == 50000


async def test_the_execution_deadline_holds_and_cancels_calls_in_flight(limited: CodeMode) -> None:
    before = await limited.value("await tools.records.cancelled_count()")
    _, structured = await limited.run(
        "await Promise.all([tools.records.slow({ ms: 1500 }), tools.records.slow({ ms: 1500 })])", timeout_ms=400
    )
    assert structured["ok"] is False and structured["error"]["kind"] == "timeout"
    after = await limited.value("await tools.records.cancelled_count()")
    assert after["cancelled"] == before["cancelled"] + 2


async def test_a_server_that_dies_mid_call_fails_the_call_and_is_started_again_on_next_use(upstream_dir: Path) -> None:
    # The per-call time limit bounds a restart too, so this test gives the restart the default limit rather than the
    # 2 s of the shared fixture: a loaded machine can take longer than that to start a Python server.
    config = write_config(upstream_dir, {"records": stdio_server("records")}, "restart.json")
    async with code_mode(config) as restarting:
        first = await restarting.value("(await tools.records.pid()).pid")
        _, structured = await restarting.run("await tools.records.crash()")
        assert structured["ok"] is False
        assert structured["toolCalls"][0]["outcome"] == "crashed"
        second = await restarting.value("(await tools.records.pid()).pid")
        assert second != first


async def test_arguments_past_the_argument_size_setting_fail_in_the_code_and_never_reach_the_host(
    limited: CodeMode,
) -> None:
    _, structured = await limited.run(
        """
        await tools.records.search_text({ q: 'x'.repeat(2_000) });
        let error;
        try { await tools.records.search_text({ q: 'y'.repeat(8_000) }); } catch (e) { error = [e.name, e.message]; }
        error
        """
    )
    assert structured["ok"], structured["error"]
    name, message = structured["result"]
    assert name == "ToolError" and "4096 bytes" in message and "max_tool_argument_bytes" in message
    assert [call["argumentBytes"] for call in structured["toolCalls"]] == [len(json.dumps({"q": "x" * 2_000}))]
