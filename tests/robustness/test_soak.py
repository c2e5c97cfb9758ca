"""A shorter soak than ``python -m benchmarks --only soak``: 300 mixed calls through one real server leave no worker,
zombie, file descriptor or memory behind."""

from __future__ import annotations

import pytest

from benchmarks.soak import KINDS, MEMORY_LIMIT_MB, soak

pytestmark = pytest.mark.anyio

CALLS = 300
WORKERS = 2
SERVER_GROWTH_MIB = 8.0
"""How much the server's RSS may grow after the warm-up. CPython returns freed memory to the system
lazily, so the resident size of a process that holds nothing more still moves by a few MiB with
fragmentation; a leak of even 30 KiB per call would pass it over 270 calls."""
WORKER_ALLOWANCE_MIB = 3 * MEMORY_LIMIT_MB + 100
"""What one worker may hold beyond an idle worker: its heap can overshoot the limit about twice in RSS,
the allocator keeps freed pages, and V8's code and compiler caches take the rest."""


async def test_three_hundred_mixed_calls_leave_no_worker_zombie_descriptor_or_memory_behind() -> None:
    report = await soak(CALLS, workers=WORKERS, concurrency=4)
    print(
        "\nsoak:",
        *(
            f"{s.label}: server {s.server_rss_mib:.1f} MiB, workers {s.workers_rss_mib:.1f} MiB, "
            f"{s.workers} workers, {s.zombies} zombies, {s.fds} fds"
            for s in report.samples
        ),
        sep="\n  ",
    )
    assert report.wrong == 0, report.examples
    assert all(f"{kind.name}: {kind.outcome}" in report.outcomes for kind in KINDS), report.outcomes
    start, warm, end = report.sample("start"), report.sample("warm-up"), report.sample("end")
    for sample in (start, warm, end):
        assert sample.settled, sample
        assert sample.workers == WORKERS, sample
        assert sample.zombies == 0, sample
    assert end.fds <= warm.fds, (warm, end)
    assert end.fds <= start.fds, (start, end)
    assert end.server_rss_mib <= warm.server_rss_mib + SERVER_GROWTH_MIB, (warm, end)
    idle_worker_mib = start.workers_rss_mib / WORKERS
    assert end.workers_rss_mib <= WORKERS * (idle_worker_mib + WORKER_ALLOWANCE_MIB), (start, end)
