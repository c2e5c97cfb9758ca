"""How many iterations each measurement takes: the default run and the quick one."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["DEFAULT", "QUICK", "Plan"]


@dataclass(frozen=True, slots=True)
class Plan:
    """Iteration counts of one run.

    Attributes:
        name: ``default`` or ``quick``.
        warmup: Unmeasured iterations before each measured path.
        isolate_iterations: Isolates created per start-up measurement.
        engine_iterations: Evaluations on a warm isolate, per path.
        latency_iterations: End-to-end calls per kind of call, back to back.
        spaced_iterations: End-to-end calls per kind of call with a pause before each.
        node_iterations: ``node`` processes per snippet.
        work_iterations: Runs of each real-work snippet, per path.
        throughput_calls: Calls made at each level of concurrency.
        concurrency: The numbers of calls kept in flight.
        cold_starts: Servers started from nothing.
        memory_first: Calls after which memory is first read.
        memory_calls: Calls after which memory is read again.
        peer_iterations: Trivial calls to each peer server (and as many to this one, interleaved).
        data_iterations: Calls per kind of data-file call and per file size.
        data_sizes_mb: Sizes of the CSV files passed through ``files``, in MB.
    """

    name: str
    warmup: int
    isolate_iterations: int
    engine_iterations: int
    latency_iterations: int
    spaced_iterations: int
    node_iterations: int
    work_iterations: int
    throughput_calls: int
    concurrency: tuple[int, ...]
    cold_starts: int
    memory_first: int
    memory_calls: int
    peer_iterations: int
    data_iterations: int
    data_sizes_mb: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT = Plan(
    name="default",
    warmup=20,
    isolate_iterations=200,
    engine_iterations=2000,
    latency_iterations=500,
    spaced_iterations=40,
    node_iterations=20,
    work_iterations=25,
    throughput_calls=800,
    concurrency=(1, 2, 4, 8),
    cold_starts=7,
    memory_first=50,
    memory_calls=1000,
    peer_iterations=200,
    data_iterations=10,
    data_sizes_mb=(1, 10),
)

QUICK = Plan(
    name="quick",
    warmup=3,
    isolate_iterations=20,
    engine_iterations=200,
    latency_iterations=30,
    spaced_iterations=4,
    node_iterations=3,
    work_iterations=3,
    throughput_calls=60,
    concurrency=(1, 2, 4, 8),
    cold_starts=2,
    memory_first=50,
    memory_calls=100,
    peer_iterations=10,
    data_iterations=3,
    data_sizes_mb=(1,),
)
