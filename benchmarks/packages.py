"""Section 20: npm packages: what a call that imports none costs with packages added, and the first import of each.

Two servers run side by side, one with the packages of ``tests/packages/fixture.lock.json`` added (downloaded once
into a temporary folder, checked like any ``packages add --lock``) and one without; `1+1` calls alternate between
them, so that drift in machine load affects both alike (target: within 10%). On the server with packages, each call
is a fresh isolate, so every import is a first import: the row's time is the whole call over stdio, and the note
gives the time inside the isolate (the outcome's ``durationMs``) beside `1+1`'s.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import RunningServer, running_server

__all__ = ["CASES", "measure"]

LOCK = Path(__file__).resolve().parent.parent / "tests" / "packages" / "fixture.lock.json"

CASES: tuple[tuple[str, str, str, Any], ...] = (
    ("lodash", "`require('lodash')`", "require('lodash').VERSION", "4.18.1"),
    ("date_fns", "`import { format } from 'date-fns'`", "import { format } from 'date-fns';\nformat(0, 'yyyy')",
     "1970"),
    ("dayjs", "`import dayjs from 'dayjs'`", "import dayjs from 'dayjs';\ndayjs(0).year()", 1970),
    ("decimal", "`await import('decimal.js')`", "(await import('decimal.js')).default.sqrt(4).toNumber()", 2),
)  # fmt: skip


def _add_packages(folder: Path) -> None:
    from sandbox_server.packages.config import registry_config
    from sandbox_server.packages.lock import Lock
    from sandbox_server.packages.registry import Registry
    from sandbox_server.packages.store import Store

    lock = Lock.from_text(LOCK.read_text(encoding="utf-8"), str(LOCK))
    with Registry(registry_config()) as registry:
        Store(folder).add_lock(registry, lock)


async def _timed(server: RunningServer, code: str) -> tuple[float, float, Any]:
    elapsed, outcome = await server.timed_call("execute_js", {"code": code, "timeout_ms": 20_000})
    return elapsed, float(outcome.get("durationMs") or 0), outcome.get("result")


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("npm packages")
    section = Section("packages", "20. npm packages: no cost without use, and the first import of each")
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-packages-") as directory:
        with_packages, without = Path(directory) / "with", Path(directory) / "without"
        without.mkdir()
        _add_packages(with_packages)
        samples: dict[str, list[float]] = {"plain": [], "added": [], **{key: [] for key, *_ in CASES}}
        inside: dict[str, list[float]] = {key: [] for key in samples}
        async with (
            running_server(SANDBOX_PACKAGES_DIR=str(without)) as plain,
            running_server(SANDBOX_PACKAGES_DIR=str(with_packages)) as added,
        ):
            warmup = plan.warmup // 4
            bar = progress.bar("packages", warmup + plan.latency_iterations)
            for i in range(warmup + plan.latency_iterations):
                runs = [("plain", plain, ONE_PLUS_ONE, 2), ("added", added, ONE_PLUS_ONE, 2)]
                runs += [(key, added, code, expected) for key, _label, code, expected in CASES]
                for key, server, code, expected in runs:
                    elapsed, duration, result = await _timed(server, code)
                    if result != expected:
                        raise RuntimeError(f"{key}: expected {expected!r}, got {result!r}")
                    if i >= warmup:
                        samples[key].append(elapsed)
                        inside[key].append(duration)
                bar.advance()
            bar.close()
    section.rows.append(Row("plain", "execute_js `1+1`, no packages added", "ms", samples["plain"]))
    section.rows.append(Row("added", "execute_js `1+1`, four packages added", "ms", samples["added"]))
    section.compare("added", "plain", short="`1+1` without packages")
    for key, label, _code, _expected in CASES:
        section.rows.append(Row(key, f"execute_js {label}, first import (fresh isolate)", "ms", samples[key]))
        section.compare(key, "added", short="`1+1`")
    medians = ", ".join(f"{key} {statistics.median(values):.1f} ms" for key, values in inside.items() if values)
    section.notes.append(
        "Inside the isolate (the outcome's durationMs, medians): " + medians + ". The first import's cost is the "
        "difference from `1+1`: the worker sends the module files the code reaches (read and checked once per "
        "worker), and the isolate compiles and runs them; the loader runs each package file as Node does, with no "
        "bundle."
    )
    return section
