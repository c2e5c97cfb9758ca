"""What stopping and recovering upstream calls costs: how soon an upstream server hears ``notifications/cancelled``
after a client cancels an ``execute_js_with_tools`` call, what cancelling the calls in flight adds to the end of a
run that passes its deadline, and what a call pays that tries a failed upstream server again.

The upstream is the repository's test server ``tests/upstream/servers/effects.py`` (it writes down, with the time,
when a cancellation reached a call) over stdio and over Streamable HTTP; the failing servers are
``tests/upstream/servers/broken.py``. The sandbox-server runs in this process behind the SDK's in-memory client.

``python -m benchmarks --only upstream_stops [--quick]`` prints a Markdown report; nothing asserts a speed.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from sandbox_server import Settings, build_server
from sandbox_server.server import App
from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import STOP_GRACE_S, UpstreamCallError
from sandbox_server.upstream.group import Upstreams

__all__ = ["report"]

REPO = Path(__file__).resolve().parents[1]
WAIT_S = 60.0


def _events(path: Path, call_id: str) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    found = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [event for event in found if event["id"] == call_id]


async def _event(path: Path, call_id: str, kinds: set[str]) -> dict[str, Any]:
    with anyio.fail_after(WAIT_S):
        while True:
            for event in _events(path, call_id):
                if event["event"] in kinds:
                    return event
            await anyio.sleep(0.002)


@contextmanager
def _effects(transport: str, folder: Path, label: str) -> Iterator[tuple[dict[str, Any], Path]]:
    log = folder / f"events-{transport}-{label}.jsonl"
    module = ["-m", "tests.upstream.servers.effects", "--events", str(log)]
    if transport == "stdio":
        yield {"command": sys.executable, "args": module, "cwd": str(REPO), "sideEffects": "allow"}, log
        return
    port_file = folder / f"effects-{label}.port"
    process = subprocess.Popen([sys.executable, *module, "--http", "0", "--port-file", str(port_file)], cwd=REPO)
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the effects server did not start")
            time.sleep(0.02)
        yield {"url": f"http://127.0.0.1:{int(port_file.read_text())}/mcp", "sideEffects": "allow"}, log
    finally:
        process.terminate()
        process.wait(timeout=10)


@asynccontextmanager
async def _code_mode(folder: Path, transport: str, mode: str) -> AsyncIterator[tuple[Client, Path]]:
    with _effects(transport, folder, mode) as (entry, log):
        config = folder / f"upstream-{transport}-{mode}.json"
        config.write_text(json.dumps({"mcpServers": {"effects": entry}}), encoding="utf-8")
        app = App.create(Settings(upstream=config, workers=1, tool_call_timeout_s=120.0))
        async with Client(build_server(app=app), mode=mode) as client:  # type: ignore[arg-type]
            yield client, log


def _stats(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered) + 0.5) - 1)]
    return f"{statistics.median(ordered):.1f} ms | {p95:.1f} ms | {len(ordered)}"


async def cancellation_latency(folder: Path, transport: str, mode: str, count: int) -> list[float]:
    """Milliseconds from the client's cancellation of a run to its upstream call hearing of it."""
    samples = []
    async with _code_mode(folder, transport, mode) as (client, log):
        for index in range(count):
            call_id = f"c{index}"
            code = f"await tools.effects.transfer({{ id: '{call_id}', ms: 20000 }})"
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "execute_js_with_tools", {"code": code, "timeout_ms": 30_000})
                await _event(log, call_id, {"started"})
                cancelled_at = time.time()
                group.cancel_scope.cancel()
            end = await _event(log, call_id, {"cancelled", "effect"})
            if end["event"] != "cancelled" or not end["notified"]:
                raise RuntimeError(f"the upstream call was not cancelled: {end}")
            samples.append((end["at"] - cancelled_at) * 1000)
    return samples


async def deadline_end(folder: Path, count: int) -> tuple[list[float], list[float]]:
    """Wall time of a run that passes a 300 ms deadline waiting on nothing, and waiting on an upstream call."""
    idle, calling = [], []
    async with _code_mode(folder, "stdio", "legacy") as (client, _):
        for index in range(count):
            for code, into in (
                ("await new Promise(() => {})", idle),
                (f"await tools.effects.lookup({{ id: 'd{index}', ms: 20000 }})", calling),
            ):
                started = time.perf_counter()
                await client.call_tool("execute_js_with_tools", {"code": code, "timeout_ms": 300})
                into.append((time.perf_counter() - started) * 1000)
    return idle, calling


def _broken(mode: str, name: str) -> ServerConfig:
    args = ("-m", "tests.upstream.servers.broken", "--mode", mode)
    return ServerConfig(name=name, transport="stdio", command=sys.executable, args=args, cwd=str(REPO))


async def retry_cost(mode: str, connect_s: float, count: int, *, settle_s: float = 0.0) -> list[float]:
    """Milliseconds one call spends trying again a server that fails its handshake (``mode`` of broken.py), made
    at once after the failed start, or ``settle_s`` later (when the failed attempt's process has been stopped)."""
    samples = []
    for _ in range(count):
        async with Upstreams([_broken(mode, "dead")], connect_timeout_s=connect_s) as upstreams:
            upstream = upstreams["dead"]
            await anyio.sleep(settle_s)
            started = time.perf_counter()
            try:
                await upstream.call("anything", {}, timeout_s=600, max_result_bytes=1_000)
            except UpstreamCallError as exc:
                if exc.reason != "unavailable":
                    raise
            samples.append((time.perf_counter() - started) * 1000)
    return samples


async def report(quick: bool) -> str:
    """The study's Markdown table: cancellation latencies, the cost at a deadline, and retries of failed servers."""
    count = 5 if quick else 20
    lines = [
        "## Stopping upstream calls",
        "",
        "| measurement | median | p95 | n |",
        "|---|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for transport in ("stdio", "http"):
            for mode in ("legacy", "auto"):
                print(f"cancellation latency, upstream over {transport}, client {mode}", file=sys.stderr)
                samples = await cancellation_latency(Path(folder), transport, mode, count)
                label = f"client cancels -> upstream hears notifications/cancelled ({transport} upstream, {mode})"
                lines.append(f"| {label} | {_stats(samples)} |")
        print("deadline with and without a call in flight", file=sys.stderr)
        idle, calling = await deadline_end(Path(folder), count)
        lines.append(f"| run past a 300 ms deadline, nothing in flight | {_stats(idle)} |")
        lines.append(f"| run past a 300 ms deadline, one upstream call in flight (cancelled) | {_stats(calling)} |")
    retries = count if quick else 8
    for mode, what, settle_s in (
        ("exit", "exits at start", 0.0),
        ("badlist", "lists broken tools and ignores the end of its input, at once", 0.0),
        ("badlist", "lists broken tools and ignores the end of its input, 5 s later", STOP_GRACE_S),
        ("hang", "never answers initialize (connect timeout 1 s), at once", 0.0),
        ("hang", "never answers initialize (connect timeout 1 s), 5 s later", STOP_GRACE_S),
    ):
        print(f"retry of a server that {what}", file=sys.stderr)
        samples = await retry_cost(mode, 1.0, retries, settle_s=settle_s)
        lines.append(f"| a call retrying a server that {what} | {_stats(samples)} |")
    return "\n".join(lines)
