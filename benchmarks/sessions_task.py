"""Section 17: a multi-step task in a session against the same task reloading its data at every step.

A generated ~5 MB CSV is loaded and parsed once in a session, then 10 questions are asked of the parsed rows; the
other way asks the same 10 questions each passing the CSV in ``input`` and parsing it again. The section's server
has the session limits raised and ``max_input_bytes`` 8 MiB, and its sessions end by idle time between runs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import anyio

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.sessions import MIB, SESSION_ENV, in_session, timed_call
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import CallFailed, RunningServer, running_server

__all__ = ["CSV_ROWS", "LOAD_CODE", "QUESTIONS", "differences", "measure_scenario", "question_code", "sales_csv"]

CSV_ROWS = 100_000
SCENARIO_IDLE_S = 1.0
"""``session_idle_timeout_s`` of section 17's server: the session of one run ends before the next run starts."""
SCENARIO_TIMEOUT_MS = 30_000

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


async def _session_way(server: RunningServer, name: str, csv: str) -> tuple[list[float], list[float], list[Any]]:
    """Load and parse once in session ``name``, then each question: the load's ms, its ``durationMs`` and the
    session's heap after it; each question's ms; the answers."""
    load_args = {"code": LOAD_CODE, "input": csv, "session": name, "timeout_ms": SCENARIO_TIMEOUT_MS}
    load, outcome = await timed_call(server, load_args)
    in_session(outcome, name, created=True)
    if outcome.get("result") != CSV_ROWS:
        raise CallFailed(f"the load call parsed {outcome.get('result')!r} rows, expected {CSV_ROWS}")
    load_inside = float(outcome["durationMs"])
    times, answers, heap = [], [], 0.0
    for i, (_, body) in enumerate(QUESTIONS):
        elapsed, outcome = await timed_call(server, {"code": question_code(body), "session": name})
        session = in_session(outcome, name, created=False)
        if session.get("reset"):
            raise CallFailed(f"session {name!r} lost its state: {outcome['session']['reset']}")
        if i == 0:
            heap = float(session["heapBytes"])  # the heap the first question began with: the load's
        times.append(elapsed)
        answers.append(outcome.get("result"))
    return [load, load_inside, heap], times, answers


async def _reload_way(server: RunningServer, csv: str) -> tuple[list[float], list[float], list[Any]]:
    """Each question in a fresh isolate with the CSV in ``input``: each call's ms, its ``durationMs``, the answers."""
    times, inside, answers = [], [], []
    for _, body in QUESTIONS:
        arguments = {"code": f"{LOAD_CODE};\n{question_code(body)}", "input": csv, "timeout_ms": SCENARIO_TIMEOUT_MS}
        elapsed, outcome = await timed_call(server, arguments)
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
        await timed_call(server, {"code": ONE_PLUS_ONE})
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
