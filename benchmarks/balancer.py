"""Section 19: latency of one call through a load balancer (HAProxy, round-robin, no affinity) against the same call
sent straight to a replica, with one replica behind the balancer and with three.

Three ``sandbox-server serve --transport http`` replicas (one worker each) run on loopback, with two HAProxy
processes in front: one balancing over the first replica only, one over all three. A client on the current
revision (stateless, each call a POST) for each path makes the same calls, interleaved call by call, so that
the ratios compare what the balancer adds under the same machine load. HAProxy comes from Debian's packages
(``apt-get install -y haproxy``); without it the section is skipped with a note. The configuration is this
module's own minimal one, written to a temporary file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import anyio
import httpx2
from anyio.abc import Process
from mcp import Client

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.snippets import ONE_PLUS_ONE

__all__ = ["REPLICAS", "haproxy_config", "measure", "skipped"]

REPLICAS = 3
NO_HAPROXY = "haproxy is not installed (apt-get install -y haproxy): the load-balancer comparison was skipped."
PATHS = (
    ("direct", "straight to a replica"),
    ("lb1", "through HAProxy, 1 replica"),
    ("lb3", "through HAProxy, 3 replicas"),
)
CALLS = (
    ("add", "add", "add", {"a": 1, "b": 2}),
    ("js", "execute_js", "execute_js `1+1`", {"code": ONE_PLUS_ONE}),
)


def haproxy_config(port: int, replicas: list[int]) -> str:
    """A minimal HAProxy configuration: HTTP mode, round-robin over ``replicas`` with health checks on /healthz."""
    servers = "\n".join(
        f"    server replica{index} 127.0.0.1:{replica} check inter 1s" for index, replica in enumerate(replicas)
    )
    return f"""global
    maxconn 512
defaults
    mode http
    timeout connect 5s
    timeout client 70s
    timeout server 70s
frontend mcp
    bind 127.0.0.1:{port}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /healthz
{servers}
"""


def label_of(path: str) -> str:
    return dict(PATHS)[path]


def skipped() -> Section:
    """The section as reported when HAProxy is not installed."""
    return Section("balancer", "21. Through a load balancer", notes=[NO_HAPROXY])


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _healthy(url: str, process: Process) -> None:
    with anyio.fail_after(60):
        async with httpx2.AsyncClient() as http:
            while True:
                if process.returncode is not None:
                    raise RuntimeError(f"{url} exited with status {process.returncode}")
                try:
                    if (await http.get(url)).status_code == 200:
                        return
                except httpx2.TransportError:
                    pass
                await anyio.sleep(0.1)  # polling until it answers


@asynccontextmanager
async def _process(command: list[str], env: dict[str, str] | None = None) -> AsyncIterator[Process]:
    async with await anyio.open_process(command, env=env, stdout=subprocess.DEVNULL, stderr=None) as process:
        try:
            yield process
        finally:
            if process.returncode is None:
                process.terminate()
                with anyio.fail_after(30):
                    await process.wait()


async def _all_healthy(started: list[tuple[str, Process]]) -> None:
    async with anyio.create_task_group() as group:
        for url, process in started:
            group.start_soon(_healthy, url, process)


@asynccontextmanager
async def _deployment(haproxy: str, folder: Path) -> AsyncIterator[dict[str, str]]:
    """Three replicas and two balancers, started together; yields the MCP URL of each path."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANDBOX_")}
    env.update(SANDBOX_WORKERS="1", SANDBOX_LOG_LEVEL="warning")
    ports = [_free_port() for _ in range(REPLICAS)]
    started: list[tuple[str, Process]] = []
    async with AsyncExitStack() as stack:
        for port in ports:
            command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--port", str(port)]
            started.append(
                (f"http://127.0.0.1:{port}/healthz", await stack.enter_async_context(_process(command, env)))
            )
        urls = {"direct": f"http://127.0.0.1:{ports[0]}/mcp"}
        for key, behind in (("lb1", ports[:1]), ("lb3", ports)):
            port = _free_port()
            config = folder / f"{key}.cfg"
            config.write_text(haproxy_config(port, behind), encoding="utf-8")
            process = await stack.enter_async_context(_process([haproxy, "-db", "-f", str(config)]))
            started.append((f"http://127.0.0.1:{port}/healthz", process))
            urls[key] = f"http://127.0.0.1:{port}/mcp"
        await _all_healthy(started)
        yield urls


async def measure(plan: Plan, progress: Progress) -> Section:
    """Interleaved calls straight to a replica and through HAProxy with 1 and 3 replicas; ratios to straight."""
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        progress.say(NO_HAPROXY)
        return skipped()
    samples: dict[str, list[float]] = {f"{path}_{call}": [] for path, _ in PATHS for call, *_ in CALLS}
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-haproxy-") as folder:
        async with _deployment(haproxy, Path(folder)) as urls, AsyncExitStack() as stack:
            clients = {path: await stack.enter_async_context(Client(urls[path])) for path, _ in PATHS}
            bar = progress.bar("balancer", plan.warmup + plan.latency_iterations)
            for iteration in range(plan.warmup + plan.latency_iterations):
                for path, _ in PATHS:
                    for call, tool, _, arguments in CALLS:
                        started = time.perf_counter()
                        result = await clients[path].call_tool(tool, arguments)
                        elapsed = (time.perf_counter() - started) * 1000
                        if result.is_error:
                            raise RuntimeError(f"{tool} failed {label_of(path)}: {result.content}")
                        if iteration >= plan.warmup:
                            samples[f"{path}_{call}"].append(elapsed)
                bar.advance()
            bar.close()
    section = Section("balancer", "21. Through a load balancer")
    for call, _, shown, _ in CALLS:
        for path, label in PATHS:
            section.rows.append(Row(f"{path}_{call}", f"{shown}, {label}", "ms", samples[f"{path}_{call}"]))
        for path, _ in PATHS[1:]:
            section.compare(f"{path}_{call}", f"direct_{call}", short=f"{shown} straight")
    version = (await anyio.run_process([haproxy, "-v"], check=False)).stdout.decode().splitlines()
    section.notes.append(
        f"{version[0] if version else 'haproxy'}; {REPLICAS} replicas of one worker each on this machine, "
        "HTTP keep-alive on both sides of the balancer, clients on the current revision (one POST per call)."
    )
    return section
