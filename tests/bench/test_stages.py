"""Section 23 measured for real with a tiny plan: every kind on both revisions, each process's CPU, the ratios."""

from __future__ import annotations

import io
from dataclasses import replace

import anyio
import pytest

from benchmarks import stages
from benchmarks.plan import QUICK
from benchmarks.progress import Progress
from benchmarks.stdio_server import CallFailed

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

TINY = replace(QUICK, name="tiny", warmup=1, latency_iterations=3)


async def test_every_kind_is_timed_on_both_revisions_with_each_process_cpu() -> None:
    with anyio.fail_after(180):
        section = await stages.measure(TINY, Progress(1, stream=io.StringIO()))
    pipe = section.row("pipe")
    assert pipe is not None and len(pipe.samples) == 3 and all(value > 0 for value in pipe.samples)
    for mode in stages.MODES:
        for key in ("inproc.sdk_add", "inproc.add"):
            row = section.row(f"{mode}.{key}")
            assert row is not None and len(row.samples) == 3 and all(value > 0 for value in row.samples), key
        floor = section.row(f"{mode}.sdk_add")
        assert floor is not None and len(floor.samples) == 3
        for kind in stages.KINDS:
            row = section.row(f"{mode}.{kind.key}")
            assert row is not None and len(row.samples) == 3, (mode, kind.key)
            if kind.key != "sdk_add":
                assert row.ratio == pytest.approx(row.median / floor.median)
            processes = ("client", "server", "workers") if kind.tool == "execute_js" else ("client", "server")
            for process in processes:
                cpu = section.row(f"{mode}.{kind.key}.{process}")
                assert cpu is not None and len(cpu.samples) == 1 and cpu.samples[0] >= 0
            run = section.row(f"{mode}.{kind.key}.run")
            assert (run is not None) == (kind.tool == "execute_js")
            if run is not None:
                assert all(value > 0 for value in run.samples)


async def test_a_wrong_answer_fails_the_section(monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = stages.Kind("add", "`add` asked for the wrong sum", False, "add", {"a": "1", "b": "5"})
    monkeypatch.setattr(stages, "KINDS", (stages.KINDS[0], wrong))
    with anyio.fail_after(120), pytest.raises(BaseException) as caught:
        await stages.measure(TINY, Progress(1, stream=io.StringIO()))
    error = caught.value
    while isinstance(error, BaseExceptionGroup):  # the clients' task groups wrap it
        error = error.exceptions[0]
    assert isinstance(error, CallFailed) and "answered wrong" in str(error)
