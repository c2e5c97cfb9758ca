"""The runtime's deferred groups compiled ahead (by a worker with nothing else to do) serve jobs exactly as when they
are compiled on first use.

Each group's source comes twice (``js_runtime/deferral.py``): as written, compiled when a job first needs the
group, and with every function in parentheses, which V8 compiles with the group, for a worker whose fresh isolate
waits for its next job. Every corpus snippet whose answer does not change from run to run, and values chosen for
their edges, run through the worker's own code twice: in a fresh isolate, and in one with every group compiled
ahead first; the outcomes must be equal, field for field and in the same order.
"""

from __future__ import annotations

import asyncio

import pytest

import js_runtime
from sandbox_server.sandbox import SandboxLimits
from sandbox_server.sandbox.worker import isolate as isolate_module
from sandbox_server.sandbox.worker import options as options_module

from .test_primitive_outcome import CORPUS, EDGE_CASES, outcomes_of

CASES = [*CORPUS, *((code, code, "") for code in EDGE_CASES)]


def test_every_group_compiled_ahead_gives_the_outcomes_of_groups_compiled_on_first_use(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The same entropy for both ways, so that random values come out the same.
    monkeypatch.setattr(options_module.os, "urandom", lambda size: bytes(range(size)))
    loaded: list[object] = []

    async def compile_every_group_ahead(isolate: isolate_module.Isolate) -> None:
        for group in js_runtime.deferred_groups():
            await isolate.compile_ahead(group)
        loaded.append(await isolate.request("deferredLoaded"))

    limits = SandboxLimits()
    on_use = asyncio.run(outcomes_of(CASES, limits))
    ahead = asyncio.run(outcomes_of(CASES, limits, compile_every_group_ahead))
    assert "did not compile" not in caplog.text
    every = ",".join(sorted(js_runtime.deferred_groups()))
    assert all(isinstance(names, str) and ",".join(sorted(names.split(","))) == every for names in loaded)
    for (name, _code, _input), one, other in zip(CASES, on_use, ahead, strict=True):
        assert list(one.items()) == list(other.items()), name
    assert sum(1 for outcome in on_use if outcome["ok"] is False) >= 5  # errors are among the cases compared
