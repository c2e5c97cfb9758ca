"""Section 11: what Node's built-ins cost the call that first uses them, next to `1+1` and a plain script.

Every call is a fresh isolate, so each use of a module is its first use: the module's source travels with the job,
the run loads it before the code runs, and the code calls it once. The fs rows read a small file of the data folder
the two ways Node code does: ``readFileSync`` of a name in the code (the server reads it before the run) and
``fs.promises.readFile`` of a name built at run time (the code asks the server through the host-call bridge while it
runs). The kinds of call are interleaved, so that drift in machine load affects them alike.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE, PRINTS
from benchmarks.stdio_server import RunningServer, running_server

__all__ = ["CASES", "SALES", "measure"]

SALES = "region,amount\n" + "".join(f"r{i % 7},{i * 3 % 101}.25\n" for i in range(200))

CASES: tuple[tuple[str, str, str, Any], ...] = (
    ("one", "`1+1`", ONE_PLUS_ONE, 2),
    ("prints", "a plain script (prints 5 lines)", PRINTS, "done"),
    ("buffer", "`Buffer.from(s).toString('base64')`", "Buffer.from('hello world').toString('base64')",
     "aGVsbG8gd29ybGQ="),
    ("crypto", "`require('crypto')` sha256 hex", "require('crypto').createHash('sha256').update('abc').digest('hex')",
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("hmac", "`crypto.subtle` HMAC-SHA256 sign",
     "const k = await crypto.subtle.importKey('raw', new TextEncoder().encode('key'), { name: 'HMAC', hash: "
     "'SHA-256' }, false, ['sign']);\n(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode('m'))).byteLength",
     32),
    ("util", "`require('util').format`", "require('util').format('%s=%d', 'n', 42)", "n=42"),
    ("path", "`require('path').join`", "require('path').join('a', '..', 'b', 'c.txt')", "b/c.txt"),
    ("assert", "`require('assert').deepStrictEqual`", "require('assert').deepStrictEqual({ a: [1] }, { a: [1] }); 1",
     1),
    ("fs_sync", "fs `readFileSync` (read before the run)", "require('fs').readFileSync('sales.csv', 'utf8').length",
     len(SALES)),
    ("fs_bridge", "fs `fs.promises.readFile` (host-call bridge)",
     "const name = ['sales', 'csv'].join('.');\n(await require('fs').promises.readFile(name, 'utf8')).length",
     len(SALES)),
)  # fmt: skip


async def _timed(server: RunningServer, code: str) -> tuple[float, Any]:
    elapsed, outcome = await server.timed_execute(code)
    return elapsed, outcome.get("result")


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("Node built-ins, first use")
    section = Section("node_first_use", "11. Node's built-ins: the cost of first use, per call")
    samples: dict[str, list[float]] = {key: [] for key, *_ in CASES}
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-node-") as directory:
        (Path(directory) / "sales.csv").write_text(SALES)
        async with running_server(SANDBOX_DATA_DIR=directory) as server:
            warmup = plan.warmup // 4
            bar = progress.bar("node built-ins", warmup + plan.latency_iterations)
            for i in range(warmup + plan.latency_iterations):
                for key, _label, code, expected in CASES:
                    elapsed, result = await _timed(server, code)
                    if result != expected:
                        raise RuntimeError(f"{key}: expected {expected!r}, got {result!r}")
                    if i >= warmup:
                        samples[key].append(elapsed)
                bar.advance()
            bar.close()
    for key, label, _code, _expected in CASES:
        section.rows.append(Row(key, f"execute_js {label} over stdio", "ms", samples[key]))
        if key != "one":
            section.compare(key, "one", short="`1+1`")
    section.notes.append(
        "Each row is one whole call over stdio, timed at the client, in a fresh isolate; the difference from `1+1` is "
        "what loading and first calling the module costs (its source is sent with the job and loaded before the "
        "code runs). `1+1` and the plain script name no module and so carry none."
    )
    return section
