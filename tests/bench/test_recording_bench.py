"""Section 24 measured for real with a tiny plan: both kinds of call, recorded and not, with their ratios."""

from __future__ import annotations

import io
from dataclasses import replace

import anyio
import pytest

from benchmarks import recording
from benchmarks.plan import QUICK
from benchmarks.progress import Progress

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def test_the_code_mode_run_and_the_control_are_timed_recorded_and_not() -> None:
    plan = replace(QUICK, name="tiny", warmup=1, latency_iterations=10)
    with anyio.fail_after(240):
        section = await recording.measure(plan, Progress(1, stream=io.StringIO()))
    for key in ("codemode", "trivial"):
        recorded, plain = section.row(f"{key}.recorded"), section.row(f"{key}.plain")
        assert recorded is not None and plain is not None, key
        assert len(recorded.samples) == len(plain.samples) == 10
        assert recorded.ratio == pytest.approx(recorded.median / plain.median)
