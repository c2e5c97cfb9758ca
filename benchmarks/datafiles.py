"""Section 10: the cost of passing a CSV file from the data folder to execute_js through ``files``."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import RunningServer, running_server

__all__ = ["measure", "write_csv"]

MB = 1_000_000

# Both read every byte of the file once: the rows total by category, the text counts lines.
ROWS_CODE = """\
const totals = {};
for (const row of files[NAME].rows) totals[row.category] = (totals[row.category] || 0) + Number(row.amount);
Object.keys(totals).length"""
TEXT_CODE = """\
const text = files[NAME].text;
let lines = 0;
for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
lines"""

CATEGORIES = ("food", "rent", "travel", "books", "health", "utilities", "gifts", "fees")


def write_csv(path: Path, size: int, seed: int = 7) -> int:
    """Write a bank-export-like CSV of about ``size`` bytes (a quoted text column among plain ones); returns rows."""
    generator = random.Random(seed)
    rows = 0
    written = 0
    with path.open("w", encoding="utf-8", newline="") as handle:
        header = "date,category,description,amount\n"
        handle.write(header)
        written += len(header)
        while written < size:
            line = (
                f"2025-{generator.randint(1, 12):02d}-{generator.randint(1, 28):02d},{generator.choice(CATEGORIES)},"
                f'"Payment {rows}, ref {generator.randint(1000, 99999)}",{generator.randint(1, 999_999) / 100}\n'
            )
            handle.write(line)
            written += len(line)
            rows += 1
    return rows


def _host_preparation(folder: Path, name: str, form: str) -> float:
    """Milliseconds the server spends before the worker gets the job: resolve, read, decode, parse, pack."""
    from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
    from sandbox_server.data.folder import DataFolder

    data = DataFolder(folder)
    started = time.perf_counter()
    selected = select(data, [FileRequest(name, form)], FilesLimits(max_files=1, max_bytes=1 << 30))
    build_payload(data, selected, 1 << 30)
    return (time.perf_counter() - started) * 1000


async def _timed(server: RunningServer, arguments: dict[str, Any]) -> tuple[float, float, Any]:
    elapsed, outcome = await server.timed_call("execute_js", arguments)
    return elapsed, float(outcome["durationMs"]), outcome.get("result")


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("data files")
    section = Section("datafiles", "10. Data files: a CSV through execute_js's `files` argument")
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-data-") as directory:
        folder = Path(directory)
        rows_by_size = {size: write_csv(folder / f"bank-{size}mb.csv", size * MB) for size in plan.data_sizes_mb}
        async with running_server(SANDBOX_DATA_DIR=str(folder)) as server:
            baseline = []
            for i in range(plan.warmup // 4 + plan.data_iterations):
                elapsed, _, _ = await _timed(server, {"code": ONE_PLUS_ONE})
                if i >= plan.warmup // 4:
                    baseline.append(elapsed)
            section.rows.append(Row("baseline", "execute_js `1+1`, no files (same server)", "ms", baseline))
            for size in plan.data_sizes_mb:
                name = f"bank-{size}mb.csv"
                for form, code in (("csv", ROWS_CODE), ("text", TEXT_CODE)):
                    key = f"csv{size}mb.{'rows' if form == 'csv' else 'text'}"
                    what = "rows (parsed by the host's csv module)" if form == "csv" else "raw text"
                    arguments = {"code": code.replace("NAME", repr(name)), "files": [{"path": name, "as": form}]}
                    bar = progress.bar(f"{size} MB CSV as {form}", 1 + plan.data_iterations)
                    totals, inside, host = [], [], []
                    expected = len(set(CATEGORIES)) if form == "csv" else rows_by_size[size] + 1
                    for i in range(1 + plan.data_iterations):
                        elapsed, duration, result = await _timed(server, arguments)
                        if result != expected:
                            raise RuntimeError(f"{key}: expected {expected}, got {result!r}")
                        if i >= 1:
                            totals.append(elapsed)
                            inside.append(duration)
                            host.append(_host_preparation(folder, name, form))
                        bar.advance()
                    bar.close()
                    label = f"{size} MB CSV ({rows_by_size[size]} rows), {what}"
                    section.rows.append(Row(f"{key}.execute_js", f"{label}: execute_js", "ms", totals))
                    section.rows.append(Row(f"{key}.inside", f"{label}: run inside the worker", "ms", inside))
                    section.rows.append(Row(f"{key}.host", f"{label}: host preparation, in process", "ms", host))
                    section.compare(f"{key}.execute_js", "baseline", short="`1+1`")
    section.notes.append(
        "Each call reads the whole file once in JavaScript (rows: a total per category; text: a line count). "
        "`execute_js` is timed at the client; 'inside the worker' is the run's `durationMs` (slicing and parsing the "
        "form the code asks for happens there, on first access); 'host preparation' repeats, in this process, what "
        "the server does before sending the job: resolve, read, decode, csv-parse and pack."
    )
    if len(plan.data_sizes_mb) < len(set(plan.data_sizes_mb) | {1, 10}):
        section.notes.append("The quick run passes the 1 MB file only; the default run adds 10 MB.")
    return section
