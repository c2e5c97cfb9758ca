"""The memory estimate of a request covers what its parsed message holds, whatever its shape, and a refusal says
when room is likely."""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import pydantic_core
import pytest

from sandbox_server.backlog import MAX_RETRY_AFTER_S, Backlog, request_cost

SHAPES = [
    pytest.param(list(range(120_000)), id="integers"),
    pytest.param([{} for _ in range(330_000)], id="empty-objects"),
    pytest.param([{"a": 1} for _ in range(125_000)], id="objects-of-one-member"),
    pytest.param([{"k": "v", "n": 12} for _ in range(70_000)], id="objects-of-two-members"),
    pytest.param([{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6} for _ in range(30_000)], id="six-members"),
    pytest.param([[i, i] for i in range(100_000)], id="pairs"),
    pytest.param([f"s{i}" for i in range(120_000)], id="distinct-strings"),
    pytest.param("x" * 1_000_000, id="one-string"),
]


@pytest.mark.parametrize("value", SHAPES)
def test_the_estimate_is_above_what_the_parsed_message_and_its_text_hold(value: Any) -> None:
    text = json.dumps({"jsonrpc": "2.0", "id": 1, "params": {"arguments": {"input": value}}}).encode()
    tracemalloc.start()
    try:
        parsed = pydantic_core.from_json(text)  # the SDK's parser
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del parsed
    # The parsed message, and the text of input made from it (the body itself counts among the bytes).
    assert request_cost(text) >= held + len(text)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_refusal_says_to_retry_when_enough_requests_will_have_ended_at_the_rate_they_end() -> None:
    clock = Clock()
    backlog = Backlog(limit=100, clock=clock)
    for _ in range(10):
        assert backlog.reserve(10)
    assert not backlog.reserve(30)
    assert backlog.retry_after(30) == 1  # nothing has ended yet: nothing to measure by, so soon
    for _ in range(2):  # two requests end in 4 s: one every 2 s
        clock.now += 2
        backlog.release(10)
        assert backlog.reserve(10)
    # 30 bytes more than fit: three requests of 10 must end, at one every 2 s.
    assert backlog.retry_after(30) == 6
    assert backlog.retry_after(5) == 2
    clock.now += 1000  # the measured endings are too old to tell
    assert backlog.retry_after(30) == 1


def test_the_wait_a_refusal_suggests_is_at_most_a_minute() -> None:
    clock = Clock()
    backlog = Backlog(limit=1000, clock=clock)
    for _ in range(100):
        backlog.reserve(10)
    clock.now += 29
    backlog.release(10)
    backlog.reserve(10)
    assert backlog.retry_after(1000) == MAX_RETRY_AFTER_S
