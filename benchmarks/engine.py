"""The engine alone, in this process: mini-racer with nothing of the server around it.

The only module of the benchmarks that imports ``py_mini_racer``. Synchronous measurements run outside any
event loop (an isolate created inside a running loop binds to it); the asyncio ones start their own loop.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from importlib import metadata

from py_mini_racer import MiniRacer

import js_runtime

__all__ = [
    "MEMORY_LIMIT_BYTES",
    "fresh_eval",
    "new_isolate_async",
    "new_isolate_sync",
    "runtime_isolate_async",
    "versions",
    "warm_eval_async",
    "warm_eval_sync",
    "warmed_runtime_isolate_async",
]

MEMORY_LIMIT_BYTES = 128 * 1024 * 1024
"""The hard heap limit a worker sets on each isolate with the default settings."""
OUTPUT_CAP_BYTES = 65_536
"""The output cap a worker passes to the runtime with the default settings."""

Tick = Callable[[], None]


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

    As the worker does between two jobs: create an isolate, set the hard memory limit, evaluate the runtime
    script on the asyncio path and take its ``run`` and ``abort`` functions; with ``warm_up``, also call
    ``run`` once on a trivial job so that V8 compiles the runtime's functions before a real job arrives.
    Closing the isolate is included.
    """
    options = json.dumps({"outputCap": OUTPUT_CAP_BYTES})

    async def measure() -> list[float]:
        source = js_runtime.source()
        samples = []
        for _ in range(iterations):
            started = time.perf_counter()
            racer = MiniRacer()
            racer.set_hard_memory_limit(MEMORY_LIMIT_BYTES)
            api = await racer.eval_cancelable(source)
            run, abort = api["run"], api["abort"]
            if warm_up:
                await run.cancelable()("0", "", options)
            del run, abort, api
            racer.close()
            samples.append(_ms(started))
            tick()
        return samples

    return asyncio.run(measure())


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
