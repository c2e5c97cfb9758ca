"""Sections 15 to 17: sessions (``execute_js`` with ``session``) against a fresh isolate per call.

15. A call in a warm session against a fresh-isolate call on the same server (latency and CPU), and the first
    call of a new session, which starts its worker process.
16. The memory of 0, 1, 4 and 8 idle sessions, each holding a small state, as the difference per session.
17. A multi-step task: a generated ~5 MB CSV loaded and parsed once in a session, then 10 questions on the parsed
    rows, against the same 10 questions each passing the CSV in ``input`` and parsing it again.

Every section has a server of its own with the session limits raised (and, for 17, ``max_input_bytes``). The
benchmark's state lives in ``var`` and ``globalThis`` so that no later call re-declares a top-level ``const``.

``python -m benchmarks.sessions [--quick]`` runs these sections alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from benchmarks import procfs
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.session import CallFailed, RunningServer, running_server
from benchmarks.snippets import ONE_PLUS_ONE

__all__ = [
    "CSV_ROWS",
    "IDLE_COUNTS",
    "LOAD_CODE",
    "QUESTIONS",
    "SESSION_ENV",
    "differences",
    "main",
    "measure_call",
    "measure_memory",
    "measure_scenario",
    "sales_csv",
]

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
CSV_ROWS = 100_000
SCENARIO_IDLE_S = 1.0
"""``session_idle_timeout_s`` of section 17's server: the session of one run ends before the next run starts."""
SCENARIO_TIMEOUT_MS = 30_000
MIB = 1024 * 1024

REGIONS = ("north", "south", "east", "west", "central", "overseas")
PRODUCTS = tuple(f"product-{i:02d}" for i in range(40))

# Both ways run this exact text: the session way once, the other way before every question.
LOAD_CODE = """\
var rows = [];
var byRegion = {};
(() => {
  const lines = input.split('\\n');
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const f = lines[i].split(',');
    const row = { date: f[0], region: f[1], product: f[2], customer: f[3], units: Number(f[4]), amount: Number(f[5]) };
    rows.push(row);
    (byRegion[row.region] ||= []).push(row);
  }
})();
rows.length"""

_CENTS = "const cents = (x) => Math.round(x * 100) / 100;"
QUESTIONS: tuple[tuple[str, str], ...] = (
    (
        "total amount by region",
        "const t = {}; for (const r of rows) t[r.region] = (t[r.region] || 0) + r.amount;\n"
        "return Object.keys(t).sort().map((k) => [k, cents(t[k])]);",
    ),
    (
        "total amount by month",
        "const t = {}; for (const r of rows) { const m = r.date.slice(0, 7); t[m] = (t[m] || 0) + r.amount; }\n"
        "return Object.keys(t).sort().map((k) => [k, cents(t[k])]);",
    ),
    (
        "top 5 products by amount",
        "const t = {}; for (const r of rows) t[r.product] = (t[r.product] || 0) + r.amount;\n"
        "return Object.entries(t).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => [k, cents(v)]);",
    ),
    ("sales above 2,000", "return rows.filter((r) => r.amount > 2000).length;"),
    (
        "average sale in the north",
        "const n = byRegion.north;\nreturn cents(n.reduce((s, r) => s + r.amount, 0) / n.length);",
    ),
    (
        "the largest sale",
        "let best = rows[0]; for (const r of rows) if (r.amount > best.amount) best = r;\n"
        "return [best.date, best.region, best.product, best.amount];",
    ),
    ("distinct customers", "return new Set(rows.map((r) => r.customer)).size;"),
    (
        "month with most units in the south",
        "const t = {};\n"
        "for (const r of byRegion.south) { const m = r.date.slice(0, 7); t[m] = (t[m] || 0) + r.units; }\n"
        "return Object.entries(t).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];",
    ),
    (
        "median sale of product-07",
        "const xs = rows.filter((r) => r.product === 'product-07').map((r) => r.amount).sort((a, b) => a - b);\n"
        "const h = xs.length >> 1;\nreturn xs.length % 2 ? xs[h] : cents((xs[h - 1] + xs[h]) / 2);",
    ),
    (
        "share of the year's amount in Q4 (%)",
        "let q4 = 0, all = 0; for (const r of rows) { all += r.amount; if (r.date >= '2024-10') q4 += r.amount; }\n"
        "return Math.round(q4 / all * 1000) / 10;",
    ),
)
"""The 10 questions: a description and a function body over ``rows`` and ``byRegion``."""


def question_code(body: str) -> str:
    """One question as an expression whose value is the answer (its locals stay inside the function)."""
    return f"(() => {{\n{_CENTS}\n{body}\n}})()"


def sales_csv(rows: int = CSV_ROWS, seed: int = 11) -> str:
    """A deterministic sales export of ``rows`` rows: date,region,product,customer,units,amount (about 5 MB)."""
    generator = random.Random(seed)
    lines = ["date,region,product,customer,units,amount"]
    for _ in range(rows):
        cents = generator.randint(100, 250_000)
        lines.append(
            f"2024-{generator.randint(1, 12):02d}-{generator.randint(1, 28):02d},{generator.choice(REGIONS)},"
            f"{generator.choice(PRODUCTS)},cust-{generator.randint(0, 29_999):05d},{generator.randint(1, 20)},"
            f"{cents // 100}.{cents % 100:02d}"
        )
    return "\n".join(lines) + "\n"


def differences(expected: Sequence[Any], answers: Sequence[Any]) -> list[str]:
    """The questions whose answer is not the expected one, described for the report."""
    return [
        f"{QUESTIONS[i][0]}: {json.dumps(want)[:120]} against {json.dumps(got)[:120]}"
        for i, (want, got) in enumerate(zip(expected, answers, strict=True))
        if want != got
    ]


async def _timed(server: RunningServer, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Milliseconds of one ``execute_js`` call at the client, and its outcome (checked to be ok)."""
    started = time.perf_counter()
    outcome = await server.call("execute_js", arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if not outcome.get("ok"):
        raise CallFailed(f"execute_js did not run cleanly: {json.dumps(outcome)[:500]}")
    return elapsed, outcome


def _in_session(outcome: dict[str, Any], name: str, *, created: bool) -> dict[str, Any]:
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
        await _timed(server, arguments)
    await anyio.sleep(SETTLE_S)
    after = _cpu_ms(server)
    return (after[0] - before[0]) / calls, (after[1] - before[1]) / calls


async def measure_call(plan: Plan, progress: Progress, server: RunningServer) -> Section:
    """Section 15: ``1+1`` in a warm session against a fresh isolate, interleaved, and a session's first call."""
    progress.section("sessions: warm session against a fresh isolate")
    section = Section("sessions_call", "15. Sessions: a call in a warm session against a fresh-isolate call")
    fresh_args: dict[str, Any] = {"code": ONE_PLUS_ONE}
    warm_args: dict[str, Any] = {"code": ONE_PLUS_ONE, "session": "bench"}
    _, outcome = await _timed(server, warm_args)
    _in_session(outcome, "bench", created=True)
    samples: dict[str, list[float]] = {key: [] for key in ("fresh", "warm", "fresh_inside", "warm_inside")}
    bar = progress.bar("interleaved calls", plan.warmup + plan.latency_iterations)
    for i in range(plan.warmup + plan.latency_iterations):
        # The order alternates: a fresh-isolate worker prepares its next isolate just after answering.
        timed = {}
        for kind in ("fresh", "warm") if i % 2 == 0 else ("warm", "fresh"):
            timed[kind] = await _timed(server, fresh_args if kind == "fresh" else warm_args)
        calls = _in_session(timed["warm"][1], "bench", created=False)["calls"]
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
    _, outcome = await _timed(server, {"code": ONE_PLUS_ONE, "session": "replaced"})
    _in_session(outcome, "replaced", created=True)
    count = max(2, plan.cold_starts)
    bar = progress.bar("new sessions", count)
    for i in range(count):
        for kind, arguments in (
            ("new", {"code": ONE_PLUS_ONE, "session": f"new-{i}"}),
            ("replaced", {"code": ONE_PLUS_ONE, "session": "replaced", "reset": True}),
        ):
            await anyio.sleep(SETTLE_S)
            before, _ = _cpu_ms(server)
            elapsed, outcome = await _timed(server, arguments)
            await anyio.sleep(SETTLE_S)
            after, _ = _cpu_ms(server)
            _in_session(outcome, str(arguments["session"]), created=True)
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
            await _timed(server, {"code": ONE_PLUS_ONE})
        bar = progress.bar("idle sessions", max(IDLE_COUNTS))
        pool: list[int] = []
        pool_worker: dict[str, float] = {}
        for count in IDLE_COUNTS:
            while len(heaps) < count:
                name = f"idle-{len(heaps)}"
                _, outcome = await _timed(server, {"code": SMALL_STATE, "session": name})
                heaps.append(int(_in_session(outcome, name, created=True)["heapBytes"]))
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


async def _session_way(server: RunningServer, name: str, csv: str) -> tuple[list[float], list[float], list[Any]]:
    """Load and parse once in session ``name``, then each question: the load's ms, its ``durationMs`` and the
    session's heap after it; each question's ms; the answers."""
    load_args = {"code": LOAD_CODE, "input": csv, "session": name, "timeout_ms": SCENARIO_TIMEOUT_MS}
    load, outcome = await _timed(server, load_args)
    heap = float(_in_session(outcome, name, created=True)["heapBytes"])
    if outcome.get("result") != CSV_ROWS:
        raise CallFailed(f"the load call parsed {outcome.get('result')!r} rows, expected {CSV_ROWS}")
    loaded = [load, float(outcome["durationMs"]), heap]
    times, answers = [], []
    for _, body in QUESTIONS:
        elapsed, outcome = await _timed(server, {"code": question_code(body), "session": name})
        if _in_session(outcome, name, created=False).get("reset"):
            raise CallFailed(f"session {name!r} lost its state: {outcome['session']['reset']}")
        times.append(elapsed)
        answers.append(outcome.get("result"))
    return loaded, times, answers


async def _reload_way(server: RunningServer, csv: str) -> tuple[list[float], list[float], list[Any]]:
    """Each question in a fresh isolate with the CSV in ``input``: each call's ms, its ``durationMs``, the answers."""
    times, inside, answers = [], [], []
    for _, body in QUESTIONS:
        arguments = {"code": f"{LOAD_CODE};\n{question_code(body)}", "input": csv, "timeout_ms": SCENARIO_TIMEOUT_MS}
        elapsed, outcome = await _timed(server, arguments)
        times.append(elapsed)
        inside.append(float(outcome["durationMs"]))
        answers.append(outcome.get("result"))
    return times, inside, answers


async def _session_gone(server: RunningServer, pool: int) -> None:
    """Wait until the idle session has ended (its worker has exited): the next run creates its session anew."""
    # Polled: nothing tells this process when the server's sweeper ends a session.
    for _ in range(int((10 * SCENARIO_IDLE_S + 10) / 0.05)):
        if len(server.processes()[1]) <= pool:
            return
        await anyio.sleep(0.05)
    raise RuntimeError(f"the idle session did not end within {10 * SCENARIO_IDLE_S + 10:g} s")


async def measure_scenario(plan: Plan, progress: Progress) -> Section:
    """Section 17: load a 5 MB CSV once then 10 questions, against 10 questions each reloading the CSV."""
    progress.section("sessions: a 5 MB CSV then 10 questions")
    section = Section("sessions_scenario", "17. Sessions: a 5 MB CSV loaded once, then 10 questions")
    csv = sales_csv()
    size = len(csv.encode())
    runs = max(2, plan.data_iterations // 2)
    rows: dict[str, list[float]] = {
        key: []
        for key in ("load", "load_inside", "questions", "total", "reload_questions", "reload_inside", "reload_total")
    }
    expected: list[Any] | None = None
    heaps: list[float] = []
    env = {
        **SESSION_ENV,
        "SANDBOX_MAX_INPUT_BYTES": str(8 * MIB),
        "SANDBOX_SESSION_IDLE_TIMEOUT_S": str(SCENARIO_IDLE_S),
    }
    async with running_server(**env) as server:
        pool = len(server.processes()[1])
        await _timed(server, {"code": ONE_PLUS_ONE})
        bar = progress.bar("runs of both ways", runs)
        for run in range(runs):
            for way in ("session", "reload") if run % 2 == 0 else ("reload", "session"):
                if way == "session":
                    (load, load_inside, heap), times, answers = await _session_way(server, f"csv-{run}", csv)
                    rows["load"].append(load)
                    rows["load_inside"].append(load_inside)
                    rows["questions"].extend(times)
                    rows["total"].append(load + sum(times))
                    heaps.append(heap)
                    await _session_gone(server, pool)
                else:
                    times, inside, answers = await _reload_way(server, csv)
                    rows["reload_questions"].extend(times)
                    rows["reload_inside"].extend(inside)
                    rows["reload_total"].append(sum(times))
                expected = expected if expected is not None else answers
                wrong = differences(expected, answers)
                if wrong:
                    raise CallFailed(f"answers differ ({way} way, run {run + 1}): " + "; ".join(wrong))
            bar.advance()
        bar.close()
    count = len(QUESTIONS)
    labels = {
        "load": "session: call 1, starts the session, parses the CSV into `rows`, indexes by region",
        "load_inside": "of which inside the worker (`durationMs`): parse and index",
        "questions": "session: one question on `rows` (each of the 10)",
        "total": f"session: the load and {count} questions, summed",
        "reload_questions": "no session: one question, the CSV in `input`, parsed again (each of the 10)",
        "reload_inside": "of which inside the worker (`durationMs`): parse and answer",
        "reload_total": f"no session: {count} questions, summed",
    }
    for key, label in labels.items():
        section.rows.append(Row(key, label, "ms", rows[key]))
    section.compare("load", "reload_questions", short="one question reloading")
    section.compare("questions", "reload_questions", short="one question reloading")
    section.compare("total", "reload_total", short=f"{count} questions reloading")
    section.compare("load_inside", "load", short="its whole call")
    section.compare("reload_inside", "reload_questions", short="its whole call")
    total, reload_total = section.row("total"), section.row("reload_total")
    if total is not None and reload_total is not None:
        section.notes.append(
            f"The {count} questions take {reload_total.median / total.median:.1f}x as long reloading the data each "
            f"time as in one session that parsed it once (medians of {runs} runs; the two ways alternate first)."
        )
    section.notes.append(
        f"Answers agree: yes, all {count} questions in every run of both ways "
        "(totals by region and by month, top products, filters, a median, a share)."
    )
    section.notes.append(
        f"The CSV: {CSV_ROWS:,} rows of date,region,product,customer,units,amount, {size / 1e6:.1f} MB, generated "
        f"with a fixed seed and passed as a JSON string in `input` (server started with max_input_bytes 8 MiB). "
        f"The session's heap after the load: {sum(heaps) / len(heaps) / MIB:.1f} MiB (`session.heapBytes`). Each run's "
        "session is new (its first call starts its worker); it ends by idle time before the next run."
    )
    return section


def main(argv: Sequence[str] | None = None) -> None:
    """Run sections 15 to 17 alone and print their report."""
    from benchmarks import machine
    from benchmarks.cli import SESSIONS_SECTIONS, Run
    from benchmarks.plan import DEFAULT, QUICK
    from benchmarks.report import markdown

    parser = argparse.ArgumentParser(prog="python -m benchmarks.sessions", description=main.__doc__)
    parser.add_argument("--quick", action="store_true", help="few iterations")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else DEFAULT
    bench = Run(plan, Progress(SESSIONS_SECTIONS))
    anyio.run(bench.measure_sessions)
    report = markdown(machine.describe(), plan, bench.sections, [])
    # The targets are judged on the other sections, none of which ran: leave out their empty block.
    sys.stdout.write(report[: report.index("## Targets")])
    sys.exit(1 if bench.failed else 0)


if __name__ == "__main__":
    main()
