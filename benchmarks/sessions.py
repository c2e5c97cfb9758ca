"""Sections 15 and 16: sessions (``execute_js`` with ``session``) against a fresh isolate per call.

15. A call in a warm session against a fresh-isolate call on the same server (latency and CPU), and the first
    call of a new session, which starts its worker process.
16. The memory of 0, 1, 4 and 8 idle sessions, each holding a small state, as the difference per session.

Section 17, a multi-step task in a session, is :mod:`benchmarks.sessions_task`. Every section has a server of its
own with the session limits raised. The benchmark's state lives in ``var`` and ``globalThis`` so that no later call
re-declares a top-level ``const``. ``python -m benchmarks --only sessions`` runs the three sections alone.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio

from benchmarks import procfs
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import CallFailed, RunningServer, running_server

__all__ = ["IDLE_COUNTS", "MIB", "SESSION_ENV", "in_session", "measure_call", "measure_memory", "timed_call"]

SESSION_ENV = {"SANDBOX_MAX_SESSIONS": "64", "SANDBOX_MAX_SESSIONS_PER_CLIENT": "64"}
"""Room for every session a section creates (the defaults are 4 per client and a share of the machine's memory)."""
CPU_BLOCKS = 8
"""Blocks of back-to-back calls per kind whose CPU is read; the blocks of the two kinds alternate."""
SETTLE_S = 0.1
"""Pause before each CPU reading: a fresh-isolate worker prepares its next isolate after answering."""
IDLE_COUNTS = (0, 1, 4, 8)
"""Idle sessions at each memory reading."""
READINGS = 3
"""Memory readings at each count, 0.1 s apart."""
SMALL_STATE = "globalThis.state = Array.from({ length: 1e4 }, (_, i) => i * 1.5);\nstate.length"
MIB = 1024 * 1024


async def timed_call(server: RunningServer, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Milliseconds of one ``execute_js`` call at the client, and its outcome (checked to be ok)."""
    started = time.perf_counter()
    outcome = await server.call("execute_js", arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if not outcome.get("ok"):
        raise CallFailed(f"execute_js did not run cleanly: {json.dumps(outcome)[:500]}")
    return elapsed, outcome


def in_session(outcome: dict[str, Any], name: str, *, created: bool) -> dict[str, Any]:
    """The outcome's ``session``, checked to be ``name`` and to have been created by this call or not."""
    session = outcome.get("session")
    if not isinstance(session, dict) or session.get("name") != name or session.get("created") is not created:
        raise CallFailed(f"expected session {name!r} (created: {created}), got {json.dumps(session)}")
    return session


def _pid(server: RunningServer) -> int:
    pid, _ = server.processes()
    if pid is None:
        raise RuntimeError("the server process was not found among this process's children")
    return pid


def _cpu_ms(server: RunningServer) -> tuple[float, float]:
    """CPU milliseconds so far of the server and every process it started (living or reaped), and of those alone."""
    pid = _pid(server)
    workers = procfs.tree_cpu_ms(pid, include_root=False)
    return workers + procfs.cpu_ms(pid), workers


async def _cpu_block(server: RunningServer, arguments: dict[str, Any], calls: int) -> tuple[float, float]:
    """CPU per call (all, workers) of ``calls`` back-to-back calls, each reading after the processes settle."""
    await anyio.sleep(SETTLE_S)
    before = _cpu_ms(server)
    for _ in range(calls):
        await timed_call(server, arguments)
    await anyio.sleep(SETTLE_S)
    after = _cpu_ms(server)
    return (after[0] - before[0]) / calls, (after[1] - before[1]) / calls


async def measure_call(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    """Section 15: ``1+1`` in a warm session against a fresh isolate, interleaved, and a session's first call."""
    progress.section("sessions: warm session against a fresh isolate")
    section = Section("sessions_call", "15. Sessions: a call in a warm session against a fresh-isolate call")
    fresh_args: dict[str, Any] = {"code": ONE_PLUS_ONE}
    warm_args: dict[str, Any] = {"code": ONE_PLUS_ONE, "session": "bench"}
    _, outcome = await timed_call(server, warm_args)
    in_session(outcome, "bench", created=True)
    samples: dict[str, list[float]] = {key: [] for key in ("fresh", "warm", "fresh_inside", "warm_inside")}
    bar = progress.bar("interleaved calls", plan.warmup + plan.latency_iterations)
    for i in range(plan.warmup + plan.latency_iterations):
        # The order alternates: a fresh-isolate worker prepares its next isolate just after answering.
        timed = {}
        for kind in ("fresh", "warm") if i % 2 == 0 else ("warm", "fresh"):
            timed[kind] = await timed_call(server, fresh_args if kind == "fresh" else warm_args)
        calls = in_session(timed["warm"][1], "bench", created=False)["calls"]
        if calls != i + 2:
            raise CallFailed(f"session 'bench' counts {calls} calls, expected {i + 2}: its state was lost")
        if i >= plan.warmup:
            for kind, (elapsed, result) in timed.items():
                samples[kind].append(elapsed)
                samples[f"{kind}_inside"].append(float(result["durationMs"]))
        bar.advance()
    bar.close()
    per_block = max(5, plan.throughput_calls // CPU_BLOCKS)
    cpu: dict[str, list[float]] = {key: [] for key in ("fresh", "fresh_workers", "warm", "warm_workers")}
    bar = progress.bar("CPU blocks", 2 * CPU_BLOCKS)
    for block in range(CPU_BLOCKS):
        for kind in ("fresh", "warm") if block % 2 == 0 else ("warm", "fresh"):
            every, workers = await _cpu_block(server, fresh_args if kind == "fresh" else warm_args, per_block)
            cpu[kind].append(every)
            cpu[f"{kind}_workers"].append(workers)
            bar.advance()
    bar.close()
    new = await _new_sessions(plan, progress, server)
    labels = {
        "fresh": "execute_js `1+1`, no session (a fresh isolate)",
        "warm": "execute_js `1+1` in a warm session",
        "fresh_inside": "of which inside the worker (`durationMs`), fresh isolate",
        "warm_inside": "of which inside the worker (`durationMs`), warm session",
    }
    for key, label in labels.items():
        section.rows.append(Row(key, label, "ms", samples[key]))
    blocks = f"{CPU_BLOCKS} blocks of {per_block} calls"
    cpu_labels = {
        "fresh": "CPU per call, server + all workers: fresh isolate",
        "fresh_workers": "of which the worker processes",
        "warm": "CPU per call, server + all workers: warm session",
        "warm_workers": "of which the worker processes (the session's own)",
    }
    for key, label in cpu_labels.items():
        section.rows.append(Row(f"cpu.{key}", label, "ms", cpu[key], note=blocks if "workers" not in key else ""))
    section.rows.append(
        Row("new", "first call of a new session (starts its worker), `1+1`", "ms", new["new"], note="a new name each")
    )
    section.rows.append(Row("new_inside", "of which inside the worker (`durationMs`)", "ms", new["new_inside"]))
    section.rows.append(Row("cpu.new", "CPU of that call, server + all workers", "ms", new["cpu_new"]))
    section.rows.append(
        Row("replaced", "`reset: true` on a session: ends its worker, starts another, `1+1`", "ms", new["replaced"])
    )
    section.rows.append(Row("cpu.replaced", "CPU of that call, server + all workers", "ms", new["cpu_replaced"]))
    section.compare("warm", "fresh", short="fresh isolate")
    section.compare("fresh_inside", "fresh", short="its whole call")
    section.compare("warm_inside", "warm", short="its whole call")
    section.compare("cpu.warm", "cpu.fresh", short="fresh isolate (CPU)")
    for key in ("cpu.fresh_workers", "cpu.warm_workers"):
        section.compare(key, key.removesuffix("_workers"), short="server + all workers")
    section.compare("new", "fresh", short="fresh isolate")
    section.compare("new_inside", "new", short="its whole call")
    section.compare("cpu.new", "cpu.fresh", short="fresh isolate (CPU)")
    section.compare("replaced", "new", short="new session")
    section.compare("cpu.replaced", "cpu.new", short="new session (CPU)")
    warm, fresh = section.row("warm"), section.row("fresh")
    if warm is not None and fresh is not None:
        section.notes.append(
            f"A call in a warm session takes {warm.median - fresh.median:+.2f} ms (median) against a fresh isolate; "
            "both run in the same server, interleaved call by call, the order alternating."
        )
    section.notes.append(
        "CPU is user + system time from /proc of the server and every process it started (the pool's workers, "
        "the sessions' workers, and those that exited, through the server's reaped-children time), read "
        f"{SETTLE_S * 1000:.0f} ms after the last call of a block so that a worker's preparation of its next isolate "
        "counts; blocks of the two kinds alternate. Clock ticks are 10 ms, so with --quick it is coarse."
    )
    return section


async def _new_sessions(plan: Plan, progress: Progress, server: RunningServer) -> dict[str, list[float]]:
    """The first call of a session under a new name, and a call with ``reset: true``, ``cold_starts`` times each."""
    found: dict[str, list[float]] = {key: [] for key in ("new", "new_inside", "cpu_new", "replaced", "cpu_replaced")}
    _, outcome = await timed_call(server, {"code": ONE_PLUS_ONE, "session": "replaced"})
    in_session(outcome, "replaced", created=True)
    count = max(2, plan.cold_starts)
    bar = progress.bar("new sessions", count)
    for i in range(count):
        for kind, arguments in (
            ("new", {"code": ONE_PLUS_ONE, "session": f"new-{i}"}),
            ("replaced", {"code": ONE_PLUS_ONE, "session": "replaced", "reset": True}),
        ):
            await anyio.sleep(SETTLE_S)
            before, _ = _cpu_ms(server)
            elapsed, outcome = await timed_call(server, arguments)
            await anyio.sleep(SETTLE_S)
            after, _ = _cpu_ms(server)
            in_session(outcome, str(arguments["session"]), created=True)
            found[kind].append(elapsed)
            found[f"cpu_{kind}"].append(after - before)
            if kind == "new":
                found["new_inside"].append(float(outcome["durationMs"]))
        bar.advance()
    bar.close()
    return found


def _pss_bytes(pid: int) -> int:
    """Proportional set size of ``pid`` (shared pages divided among the processes sharing them); 0 when unknown."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def _memory(server: RunningServer) -> tuple[float, float, list[int]]:
    """RSS and PSS in MiB of the server and all its workers together, and the workers' pids."""
    pid, workers = server.processes()
    if pid is None:
        raise RuntimeError("the server process was not found among this process's children")
    tree = [pid, *workers]
    return sum(procfs.rss_bytes(p) for p in tree) / MIB, sum(_pss_bytes(p) for p in tree) / MIB, workers


async def _readings(server: RunningServer) -> tuple[list[float], list[float], list[int]]:
    rss, pss = [], []
    workers: list[int] = []
    for _ in range(READINGS):
        await anyio.sleep(0.1)
        one_rss, one_pss, workers = _memory(server)
        rss.append(one_rss)
        pss.append(one_pss)
    return rss, pss, workers


async def measure_memory(plan: Plan, progress: Progress) -> Section:
    """Section 16: the server's process tree with 0, 1, 4 and 8 idle sessions, each holding 1e4 numbers."""
    progress.section("sessions: memory of idle sessions")
    section = Section("sessions_memory", "16. Sessions: memory of idle sessions (server + all workers)")
    rss: dict[int, list[float]] = {}
    pss: dict[int, list[float]] = {}
    heaps: list[int] = []
    async with running_server(**SESSION_ENV) as server:
        for _ in range(plan.warmup):
            await timed_call(server, {"code": ONE_PLUS_ONE})
        bar = progress.bar("idle sessions", max(IDLE_COUNTS))
        pool: list[int] = []
        pool_worker: dict[str, float] = {}
        for count in IDLE_COUNTS:
            while len(heaps) < count:
                name = f"idle-{len(heaps)}"
                _, outcome = await timed_call(server, {"code": SMALL_STATE, "session": name})
                in_session(outcome, name, created=True)
                # A call reports the heap it began with: a second, empty one reads what the first kept.
                _, outcome = await timed_call(server, {"code": "0", "session": name})
                heaps.append(int(in_session(outcome, name, created=False)["heapBytes"]))
                bar.advance()
            await anyio.sleep(0.3)
            rss[count], pss[count], workers = await _readings(server)
            if count == 0:
                pool = workers
                pool_worker = {
                    "rss": sum(procfs.rss_bytes(w) for w in pool) / MIB / max(1, len(pool)),
                    "pss": sum(_pss_bytes(w) for w in pool) / MIB / max(1, len(pool)),
                }
            elif len(workers) != len(pool) + count:
                raise RuntimeError(f"expected {len(pool)} pool workers and {count} sessions, found {len(workers)}")
        bar.close()
    for count in IDLE_COUNTS:
        what = "no session" if count == 0 else f"{count} idle session{'s' if count > 1 else ''}"
        section.rows.append(Row(f"rss.{count}", f"RSS, {what}", "MiB", rss[count]))
    for count in IDLE_COUNTS[1:]:
        section.compare(f"rss.{count}", "rss.0", short="no session")
    for measure in ("rss", "pss"):
        label = f"{measure.upper()} of one of the pool's {len(pool)} workers (their mean, no session)"
        section.rows.append(Row(f"pool_worker.{measure}", label, "MiB", [pool_worker[measure]]))
    for measure, values in (("rss", rss), ("pss", pss)):
        for count in IDLE_COUNTS[1:]:
            per = [(now - base) / count for now, base in zip(values[count], values[0], strict=True)]
            label = f"{measure.upper()} per session, {count} idle: (with {count} - with none) / {count}"
            section.rows.append(Row(f"{measure}.per_session.{count}", label, "MiB", per))
            short = f"one pool worker ({measure.upper()})"
            section.compare(f"{measure}.per_session.{count}", f"pool_worker.{measure}", short=short)
    section.notes.append(
        f"Each session was created by one call keeping {SMALL_STATE.splitlines()[0]!r}; its heap then "
        f"(`session.heapBytes`) was {sum(heaps) / len(heaps) / MIB:.2f} MiB on average. The server has "
        f"{len(pool)} pool workers; each session adds a worker process of its own. {READINGS} readings at each "
        "count, 0.1 s apart; the per-session rows pair them up."
    )
    section.notes.append(
        "RSS (VmRSS) counts shared pages (the interpreter, V8's library) in every process; PSS (smaps_rollup) "
        "divides them among the processes sharing them, so its difference is closer to what one more session "
        "costs the machine."
    )
    return section
