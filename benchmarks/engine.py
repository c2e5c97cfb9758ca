"""The engine alone, in this process: mini-racer with nothing of the server around it.

The only module of the benchmarks that imports ``py_mini_racer`` (and the worker module, whose real code paths
the cycle breakdown times). Synchronous measurements run outside any event loop (an isolate created inside a
running loop binds to it); the asyncio ones start their own loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata

from py_mini_racer import MiniRacer

from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.source import analyze
from sandbox_server.sandbox.worker import engine as worker_engine
from sandbox_server.sandbox.worker import isolate as worker_isolate
from sandbox_server.sandbox.worker import job as worker_job

__all__ = [
    "MEMORY_LIMIT_BYTES",
    "STAGES",
    "Cost",
    "CycleError",
    "analysis_cost",
    "fresh_eval",
    "new_isolate_async",
    "new_isolate_sync",
    "raw_cycle_cost",
    "runtime_isolate_async",
    "versions",
    "warm_eval_async",
    "warm_eval_sync",
    "warmed_runtime_isolate_async",
    "worker_cycle_cost",
]

MEMORY_LIMIT_BYTES = 128 * 1024 * 1024
"""The hard heap limit a worker sets on each isolate with the default settings."""

Tick = Callable[[], None]

STAGES = ("create", "runtime", "warm_up", "call", "close")
"""The stages of a worker's cycle, in order: what :func:`worker_cycle_cost` times."""


class CycleError(RuntimeError):
    """The worker's cycle could not be timed stage by stage (its code no longer has the shape timed here)."""


class Cost:
    """Wall-clock and process CPU milliseconds of repeated steps, step by step."""

    def __init__(self, steps: tuple[str, ...]) -> None:
        self.wall: dict[str, list[float]] = {step: [] for step in steps}
        self.cpu: dict[str, list[float]] = {step: [] for step in steps}
        self._marks: list[tuple[float, float]] = []

    def start(self) -> None:
        self._marks = [(time.perf_counter(), time.process_time())]

    def mark(self, step: str) -> None:
        """Record the time since the previous mark (or :meth:`start`) as one sample of ``step``."""
        wall, cpu = time.perf_counter(), time.process_time()
        last_wall, last_cpu = self._marks[-1]
        self.wall[step].append((wall - last_wall) * 1000)
        self.cpu[step].append((cpu - last_cpu) * 1000)
        self._marks.append((wall, cpu))


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def versions() -> dict[str, str]:
    """The V8 and mini-racer versions in use."""
    with MiniRacer() as racer:
        v8 = racer.v8_version
    return {"v8": v8, "miniRacer": metadata.version("mini-racer")}


def new_isolate_sync(iterations: int, tick: Tick) -> list[float]:
    """Milliseconds to create an isolate, evaluate ``1+1`` in it and close it (synchronous path), each time."""
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        racer = MiniRacer()
        racer.eval("1+1")
        racer.close()
        samples.append(_ms(started))
        tick()
    return samples


def new_isolate_async(iterations: int, tick: Tick) -> list[float]:
    """The same on the asyncio path (``eval_cancelable``), ``iterations`` times."""

    async def measure() -> list[float]:
        samples = []
        for _ in range(iterations):
            started = time.perf_counter()
            racer = MiniRacer()
            await racer.eval_cancelable("1+1")
            racer.close()
            samples.append(_ms(started))
            tick()
        return samples

    return asyncio.run(measure())


def runtime_isolate_async(iterations: int, tick: Tick, *, warm_up: bool = False) -> list[float]:
    """Milliseconds for what a worker does to have a fresh isolate ready, ``iterations`` times.

    The worker's own ``Isolate.prepare`` (create an isolate, set the hard memory limit, evaluate the runtime,
    take its functions, connect the notification) and, with ``warm_up``, its warm-up run of a trivial job, so
    that V8 compiles the runtime's functions before a real job arrives; then ``Isolate.close``. As in a worker,
    one idle isolate stays alive meanwhile; it is closed at the end.
    """
    limits = SandboxLimits()

    async def measure() -> list[float]:
        samples = []
        worker_engine.keep_an_isolate()
        try:
            for _ in range(iterations):
                started = time.perf_counter()
                isolate = await worker_isolate.Isolate.prepare(limits, warm_up=warm_up)
                isolate.close()
                samples.append(_ms(started))
                tick()
        finally:
            _close_kept_isolates()
        return samples

    return asyncio.run(measure())


def _close_kept_isolates() -> None:
    while worker_engine.KEEPER:
        worker_engine.KEEPER.pop().close()


def warmed_runtime_isolate_async(iterations: int, tick: Tick) -> list[float]:
    """:func:`runtime_isolate_async` with the warm-up run."""
    return runtime_isolate_async(iterations, tick, warm_up=True)


def warm_eval_sync(code: str, iterations: int, tick: Tick) -> list[float]:
    """Milliseconds per ``eval(code)`` on one warm isolate, synchronous path."""
    samples = []
    with MiniRacer() as racer:
        for _ in range(iterations):
            started = time.perf_counter()
            racer.eval(code)
            samples.append(_ms(started))
            tick()
    return samples


def warm_eval_async(code: str, iterations: int, tick: Tick) -> list[float]:
    """Milliseconds per ``await eval_cancelable(code)`` on one warm isolate, asyncio path."""

    async def measure() -> list[float]:
        samples = []
        racer = MiniRacer()
        try:
            for _ in range(iterations):
                started = time.perf_counter()
                await racer.eval_cancelable(code)
                samples.append(_ms(started))
                tick()
        finally:
            racer.close()
        return samples

    return asyncio.run(measure())


def fresh_eval(code: str) -> tuple[float, str]:
    """Milliseconds to evaluate ``code`` in a new isolate (created and closed outside the timing), and its value.

    A new isolate per run, as in the server, so that nothing compiled or allocated by an earlier run helps.
    """
    with MiniRacer() as racer:
        racer.set_hard_memory_limit(MEMORY_LIMIT_BYTES)
        started = time.perf_counter()
        value = racer.eval(code)
        elapsed = _ms(started)
    return elapsed, str(value)


def raw_cycle_cost(iterations: int, tick: Tick) -> Cost:
    """The floor of a fresh isolate per call: ``MiniRacer()``, ``eval('1+1')``, ``close()``, ``iterations`` times.

    Wall and process CPU time per cycle (``time.process_time`` counts every thread of this process, so V8's and
    mini-racer's threads too), with no other isolate alive, as a program that uses mini-racer plainly does.
    """
    cost = Cost(("cycle",))
    for _ in range(iterations):
        cost.start()
        racer = MiniRacer()
        racer.eval("1+1")
        racer.close()
        cost.mark("cycle")
        tick()
    return cost


@contextmanager
def _racer_for_next_prepare(racer: MiniRacer) -> Iterator[None]:
    """Make the worker's next ``Isolate.prepare`` use ``racer`` instead of creating one, so creation is timed apart."""
    original = worker_engine.new_racer
    worker_engine.new_racer = lambda: racer
    try:
        yield
    finally:
        worker_engine.new_racer = original


def worker_cycle_cost(
    iterations: int, tick: Tick, code: str = "1+1", result_text: str = "2", *, idle_compile: bool = False
) -> Cost:
    """What one job costs a worker, stage by stage, through the worker's own code in this process.

    Stages: ``create`` (``worker_engine.new_racer``, mini-racer's context without its setTimeout shim), ``runtime``
    (the rest of ``Isolate.prepare``: memory limit, the runtime's evaluation, its functions, the notification),
    ``warm_up`` (``Isolate.warm_up``), ``call`` (``worker_job.execute`` on a request for ``code``: the source
    analysis, the job's one evaluation, the outcome's check; its result must render as ``result_text``) and
    ``close`` (``Isolate.close``). With ``idle_compile``, the ``warm_up`` stage also compiles the runtime's common
    groups, as a worker does while it waits for a job (``Isolate.compile_common_groups``). As in a worker, one idle
    isolate stays alive throughout
    (``worker_engine.keep_an_isolate``); it is closed at the end, so that later measurements in this process see no
    other isolate.
    """
    limits = SandboxLimits()
    request = {"id": 1, "code": code, "input": "", "timeoutMs": 10_000}

    async def measure() -> Cost:
        cost = Cost(STAGES)
        worker_engine.keep_an_isolate()
        try:
            for _ in range(iterations):
                cost.start()
                racer = worker_engine.new_racer()
                cost.mark("create")
                with _racer_for_next_prepare(racer):
                    isolate = await worker_isolate.Isolate.prepare(limits, warm_up=False)
                if isolate.racer is not racer:
                    isolate.close()
                    racer.close()
                    raise CycleError("Isolate.prepare no longer creates its isolate through worker_engine.new_racer")
                cost.mark("runtime")
                if not await isolate.warm_up():
                    raise CycleError("the runtime failed its warm-up run")
                if idle_compile:
                    await isolate.compile_common_groups()
                cost.mark("warm_up")
                outcome = await worker_job.execute(isolate, request, limits)
                cost.mark("call")
                isolate.close()
                cost.mark("close")
                if not outcome["ok"] or outcome.get("resultText") != result_text:
                    raise CycleError(f"the worker's `{code}` job went wrong: {outcome}")
                tick()
        finally:
            _close_kept_isolates()
        return cost

    return asyncio.run(measure())


def analysis_cost(code: str, iterations: int) -> list[float]:
    """Milliseconds of the per-job source analysis of ``code`` (part of the ``call`` stage), each time."""
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        analyze(code)
        samples.append(_ms(started))
    return samples
