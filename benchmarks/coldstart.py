"""Section 6: from spawning ``sandbox-server`` to the first execute_js result."""

from __future__ import annotations

import subprocess
import sys
import time

import anyio
from mcp import Client

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE
from benchmarks.stdio_server import CallFailed, server_parameters

__all__ = ["cold_start", "measure"]


async def cold_start() -> tuple[float, float]:
    """Milliseconds from spawn to the first result, and from closing the connection to the server's exit."""
    started = time.perf_counter()
    async with Client(server_parameters(), mode="legacy") as client:
        result = await client.call_tool("execute_js", {"code": ONE_PLUS_ONE})
        first = (time.perf_counter() - started) * 1000
        if result.is_error:
            raise CallFailed(f"execute_js failed on a cold server: {result.content}")
        closing = time.perf_counter()
    return first, (time.perf_counter() - closing) * 1000


def _import_ms() -> float:
    """Milliseconds for a new interpreter to import the server's modules and exit (part of every cold start)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sandbox_server.server"], check=True, capture_output=True)
    return (time.perf_counter() - started) * 1000


async def measure(plan: Plan, progress: Progress) -> Section:
    progress.section("cold start")
    firsts, shutdowns, imports = [], [], []
    bar = progress.bar("spawn to first result", plan.cold_starts)
    for _ in range(plan.cold_starts):
        first, shutdown = await cold_start()
        firsts.append(first)
        shutdowns.append(shutdown)
        imports.append(await anyio.to_thread.run_sync(_import_ms))
        bar.advance()
    bar.close()
    section = Section("coldstart", "6. Cold start")
    section.rows.append(Row("first_result", "spawn `sandbox-server` to first execute_js result", "ms", firsts))
    section.rows.append(
        Row("imports", "of which: `python -c 'import sandbox_server.server'`", "ms", imports, note="separate process")
    )
    section.rows.append(Row("shutdown", "close stdin to server exit (not in the above)", "ms", shutdowns))
    section.compare("imports", "first_result", short="cold start")
    section.notes.append(
        "The first result includes process start, imports, starting the worker pool, the MCP handshake and one call."
    )
    return section
