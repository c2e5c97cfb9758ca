"""``python -m benchmarks --only soak [--soak-calls N]``: many mixed calls through one server, watching for leaks.

One ``sandbox-server`` process over stdio (as a desktop client starts it, driven by the official MCP client)
takes a long, seeded mix of calls: JavaScript that succeeds, throws, does not parse, loops past a small
``timeout_ms``, loops where only killing the worker stops it, and exhausts a small memory limit, plus
``add``, ``divide`` and ``date_diff``. Every result is checked against the outcome its kind must have.

At the start, after 10% of the calls (the warm-up) and at the end, with no call in flight, it reads from
/proc the resident memory (VmRSS) of the server and of its workers, the number of worker processes, how many
of the server's children are zombies, and the server's open file descriptors. A server that leaks shows
memory or descriptors growing after the warm-up, workers accumulating, or zombies left unreaped.

The report (Markdown) goes to stdout, progress to stderr; ``--json PATH`` writes the figures. The run fails
(exit status 1) when a result had the wrong outcome or a call failed.
"""

from __future__ import annotations

import collections
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from benchmarks import procfs
from benchmarks.stdio_server import server_env

__all__ = [
    "DEFAULT_CALLS",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_WORKERS",
    "KINDS",
    "Sample",
    "SoakReport",
    "markdown",
    "progress_line",
    "soak",
]

DEFAULT_CALLS = 5_000
DEFAULT_WORKERS = 2
DEFAULT_CONCURRENCY = 4
MEMORY_LIMIT_MB = 32
"""Small, so that memory bombs end quickly; every other call needs far less."""
WARM_UP_SHARE = 0.1
SETTLE_TIMEOUT_S = 15.0
MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of call in the mix: how often it comes, the call, and the outcome it must have."""

    name: str
    weight: int
    tool: str
    arguments: Callable[[int], dict[str, Any]]
    outcome: str
    """``ok``, an execute_js error kind (``runtime``, ``timeout``...), or ``error`` for another tool's error."""


KINDS: list[Kind] = [
    Kind(
        "js-ok",
        30,
        "execute_js",
        lambda i: {"code": f"const xs = Array.from({{length: 200}}, (_, k) => k * {i}); console.log(xs.length); xs"},
        "ok",
    ),
    Kind(
        "js-input",
        6,
        "execute_js",
        lambda i: {
            "code": "input.rows.reduce((s, r) => s + r.n, 0)",
            "input": {"rows": [{"n": k} for k in range(i % 50)]},
        },
        "ok",
    ),
    Kind("js-runtime-error", 10, "execute_js", lambda i: {"code": f"null.property{i % 7}"}, "runtime"),
    Kind("js-syntax-error", 8, "execute_js", lambda i: {"code": f"let x{i} = ;"}, "syntax"),
    Kind("js-timeout", 6, "execute_js", lambda i: {"code": "while (true) {}", "timeout_ms": 50}, "timeout"),
    Kind(
        "js-timeout-killed",
        1,
        "execute_js",
        # A loop after an await runs outside the engine's own timeout: only killing the worker stops it.
        lambda i: {"code": "await Promise.resolve(); while (true) {}", "timeout_ms": 50},
        "timeout",
    ),
    Kind(
        "js-memory-bomb",
        5,
        "execute_js",
        lambda i: {"code": "const a = []; while (true) a.push(new Array(1e5).fill(1));", "timeout_ms": 10_000},
        "memory",
    ),
    Kind("add", 12, "add", lambda i: {"a": str(10**30 + i), "b": -i}, "ok"),
    Kind("divide", 10, "divide", lambda i: {"a": str(i + 1), "b": "7", "precision": 20}, "ok"),
    Kind("divide-by-zero", 2, "divide", lambda i: {"a": i, "b": 0}, "error"),
    Kind(
        "date_diff",
        10,
        "date_diff",
        lambda i: {"start": "2024-01-01", "end": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}"},
        "ok",
    ),
]


@dataclass(slots=True)
class Sample:
    """What /proc says about the server and its workers at one moment, with no call in flight."""

    label: str
    calls_done: int
    server_rss_mib: float
    workers_rss_mib: float
    workers: int
    zombies: int
    fds: int
    settled: bool
    """Whether the pool had all its workers and the descriptor count was steady when read."""


@dataclass(slots=True)
class SoakReport:
    """The figures of one soak run."""

    calls: int
    workers: int
    concurrency: int
    memory_limit_mb: int
    duration_s: float = 0.0
    samples: list[Sample] = field(default_factory=list)
    outcomes: dict[str, int] = field(default_factory=dict)
    wrong: int = 0
    examples: list[str] = field(default_factory=list)
    """The first few calls whose outcome was not the expected one."""

    def sample(self, label: str) -> Sample:
        return next(sample for sample in self.samples if sample.label == label)


def plan(calls: int, seed: int = 2025) -> list[Kind]:
    """The kinds of ``calls`` calls: one of each first, so that the warm-up meets them all, then a seeded mix."""
    rng = random.Random(seed)
    rest = rng.choices(KINDS, weights=[kind.weight for kind in KINDS], k=max(0, calls - len(KINDS)))
    return (KINDS + rest)[:calls]


def _state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2 :].split()[0]


def _fd_count(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _read(pid: int, workers: int, label: str, calls_done: int, settled: bool) -> Sample:
    children = procfs.children(pid)
    zombies = [child for child in children if _state(child) == "Z"]
    live = [child for child in procfs.workers(pid) if child not in zombies]
    return Sample(
        label=label,
        calls_done=calls_done,
        server_rss_mib=procfs.rss_bytes(pid) / MIB,
        workers_rss_mib=sum(procfs.rss_bytes(child) for child in live) / MIB,
        workers=len(live),
        zombies=len(zombies),
        fds=_fd_count(pid),
        settled=settled,
    )


async def _settled_sample(pid: int, workers: int, label: str, calls_done: int) -> Sample:
    """A sample once the pool has ``workers`` live workers and the descriptor count holds still.

    After a worker was killed its replacement may still be starting: its pipes are open but it is not
    ready. Three equal readings 50 ms apart, with every worker present, mean nothing is in motion.
    """
    readings: collections.deque[tuple[int, int]] = collections.deque(maxlen=3)
    with anyio.move_on_after(SETTLE_TIMEOUT_S):
        while True:
            sample = _read(pid, workers, label, calls_done, settled=True)
            readings.append((sample.workers, sample.fds))
            if len(readings) == 3 and len(set(readings)) == 1 and sample.workers == workers and not sample.zombies:
                return sample
            await anyio.sleep(0.05)  # polling /proc until the pool is at rest
    return _read(pid, workers, label, calls_done, settled=False)


def _outcome(result: Any) -> str:
    if not result.is_error:
        return "ok"
    failure = (result.structured_content or {}).get("error")
    if isinstance(failure, dict) and isinstance(failure.get("kind"), str):
        return str(failure["kind"])
    return "error"


def _server_pid(before: set[int]) -> int:
    for pid in procfs.children(os.getpid()):
        if pid not in before and "sandbox_server" in procfs.cmdline(pid):
            return pid
    raise RuntimeError("the server process was not found among this process's children")


async def soak(
    calls: int = DEFAULT_CALLS,
    *,
    workers: int = DEFAULT_WORKERS,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: Callable[[int, int], None] | None = None,
) -> SoakReport:
    """Run ``calls`` mixed calls through one server, ``concurrency`` at a time; samples at start, 10% and end."""
    report = SoakReport(calls=calls, workers=workers, concurrency=concurrency, memory_limit_mb=MEMORY_LIMIT_MB)
    kinds = plan(calls)
    outcomes: collections.Counter[str] = collections.Counter()
    env = server_env() | {"SANDBOX_WORKERS": str(workers), "SANDBOX_MEMORY_LIMIT_MB": str(MEMORY_LIMIT_MB)}
    parameters = StdioServerParameters(command=sys.executable, args=["-m", "sandbox_server"], env=env)
    before = set(procfs.children(os.getpid()))
    done = 0

    async with Client(parameters, mode="legacy") as client:
        pid = _server_pid(before)

        async def one(index: int) -> None:
            nonlocal done
            kind = kinds[index]
            try:
                observed = _outcome(await client.call_tool(kind.tool, kind.arguments(index)))
            except Exception as exc:  # a call that fails outright is a wrong outcome, reported with the others
                observed = f"exception {type(exc).__name__}: {exc}"
            outcomes[f"{kind.name}: {observed}"] += 1
            if observed != kind.outcome:
                report.wrong += 1
                if len(report.examples) < 10:
                    report.examples.append(f"call {index} ({kind.name}): expected {kind.outcome}, got {observed}")
            done += 1
            if progress is not None:
                progress(done, calls)

        async def phase(start: int, stop: int) -> None:
            indices = iter(range(start, stop))

            async def lane() -> None:
                for index in indices:
                    await one(index)

            async with anyio.create_task_group() as group:
                for _ in range(concurrency):
                    group.start_soon(lane)

        report.samples.append(await _settled_sample(pid, workers, "start", 0))
        started = time.perf_counter()
        warm_up = max(len(KINDS), round(calls * WARM_UP_SHARE))
        await phase(0, min(warm_up, calls))
        report.samples.append(await _settled_sample(pid, workers, "warm-up", done))
        await phase(min(warm_up, calls), calls)
        report.duration_s = time.perf_counter() - started
        report.samples.append(await _settled_sample(pid, workers, "end", done))
    report.outcomes = dict(sorted(outcomes.items()))
    return report


def markdown(report: SoakReport) -> str:
    """The report as Markdown."""
    lines = [
        f"# Soak: {report.calls} mixed calls, {report.workers} workers, {report.concurrency} in flight",
        "",
        f"{report.duration_s:.1f} s, {report.calls / max(report.duration_s, 1e-9):.0f} calls/s; "
        f"memory limit {report.memory_limit_mb} MiB; wrong outcomes: {report.wrong}",
        "",
        "| moment | calls done | server RSS (MiB) | workers RSS (MiB) | workers | zombies | server fds | settled |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    lines += [
        f"| {s.label} | {s.calls_done} | {s.server_rss_mib:.1f} | {s.workers_rss_mib:.1f} | {s.workers} | "
        f"{s.zombies} | {s.fds} | {'yes' if s.settled else 'no'} |"
        for s in report.samples
    ]
    lines += ["", "| kind: outcome | calls |", "|---|---:|"]
    lines += [f"| {name} | {count} |" for name, count in report.outcomes.items()]
    if report.examples:
        lines += ["", "Wrong outcomes (first ones):", *[f"- {example}" for example in report.examples]]
    return "\n".join(lines) + "\n"


def progress_line(done: int, total: int) -> None:
    """A line on stderr at every twentieth of the calls."""
    step = max(1, total // 20)
    if done % step == 0 or done == total:
        sys.stderr.write(f"soak: {done}/{total} calls\n")
        sys.stderr.flush()
