"""The operating-system side of the isolation: what a worker process inherits, and that it cannot outlive
the server or a deadline."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.charts import Renderer, charts_available
from sandbox_server.server import App
from sandbox_server.settings import Settings

from ..conftest import make_settings
from .conftest import Sandbox

pytestmark = pytest.mark.anyio

WAIT_S = 30

# What a worker may find in its environment: the interpreter's search path, a temporary directory, a fixed
# locale, and the import path of this package.
WORKER_ENVIRONMENT = {"PATH", "PYTHONHOME", "TMPDIR", "LANG", "LC_ALL", "PYTHONPATH", "SANDBOX_PLATFORM"}


def environment_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (entry.split(b"=", 1) for entry in raw.split(b"\0") if entry)
    return {key.decode(): value.decode("utf-8", "replace") for key, value in pairs}


def is_gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie has ended too: it only waits to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat[stat.rindex(")") + 2] == "Z"


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                found.append(int(entry.name))
    return found


async def wait_for_exit(pid: int) -> None:
    """Return once ``pid`` has ended, without polling: a pidfd becomes readable then."""
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        await anyio.wait_readable(descriptor)
    finally:
        os.close(descriptor)


async def test_workers_get_none_of_the_servers_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_AUTH_TOKEN", "token-that-must-not-reach-a-worker")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret-that-must-not-reach-a-worker")
    settings = make_settings(workers=1)
    assert isinstance(settings, Settings) and settings.auth_token is not None  # the server did read its token
    app = App.create(settings)
    async with Client(build_server(app=app), mode="legacy") as client:
        with anyio.fail_after(WAIT_S):
            await client.call_tool("execute_js", {"code": "1"})
        (pid,) = app.pool.pids()
        environment = environment_of(pid)
    assert set(environment) <= WORKER_ENVIRONMENT
    assert not any("must-not-reach" in value for value in environment.values())
    assert (environment["LANG"], environment["LC_ALL"]) == ("C.UTF-8", "C.UTF-8")


async def test_workers_run_from_the_root_directory_in_sessions_of_their_own(sandbox: Sandbox) -> None:
    await sandbox.assert_still_serving()
    for pid in sandbox.app.pool.pids():
        assert os.readlink(f"/proc/{pid}/cwd") == "/"
        assert os.getsid(pid) == pid  # signals to the server's process group do not reach it


@pytest.mark.skipif(not charts_available(), reason="needs the charts extra")
async def test_the_render_process_gets_none_of_the_servers_environment_and_runs_like_a_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The renderer runs vl-convert's own V8 on specifications the model wrote: the same allow-list as a worker's.
    monkeypatch.setenv("SANDBOX_AUTH_TOKEN", "token-that-must-not-reach-the-renderer")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret-that-must-not-reach-the-renderer")
    renderer = Renderer()
    try:
        with anyio.fail_after(WAIT_S * 2):
            await renderer.wait_ready()
        pid = renderer.pid
        assert pid is not None
        environment = environment_of(pid)
        assert set(environment) <= WORKER_ENVIRONMENT | {"TZ"}
        assert not any("must-not-reach" in value for value in environment.values())
        assert (environment["LANG"], environment["LC_ALL"], environment["TZ"]) == ("C.UTF-8", "C.UTF-8", "UTC")
        assert os.readlink(f"/proc/{pid}/cwd") == "/"
        assert os.getsid(pid) == pid
        assert os.readlink(f"/proc/{pid}/fd/1") == os.readlink(f"/proc/{pid}/fd/2")
    finally:
        await renderer.aclose()
    assert pid is not None and is_gone(pid)


async def test_anything_a_worker_writes_to_fd_1_goes_to_its_stderr_not_into_the_protocol(sandbox: Sandbox) -> None:
    # Native code may print on stdout (V8 diagnostics, a library's messages); the protocol has its own descriptor.
    await sandbox.assert_still_serving()
    for pid in sandbox.app.pool.pids():
        assert os.readlink(f"/proc/{pid}/fd/1") == os.readlink(f"/proc/{pid}/fd/2")


async def test_a_worker_stuck_in_a_callback_loop_is_killed_at_the_deadline_and_replaced(sandbox: Sandbox) -> None:
    await sandbox.assert_still_serving()
    before = set(sandbox.app.pool.pids())
    call = await sandbox.run("Promise.resolve().then(() => { for (;;) {} }); 'queued'", timeout_ms=300)
    assert call.kind == "timeout"
    await sandbox.assert_still_serving()
    # The replacement starts once the supervisor has seen the killed process end; wait for it, boundedly.
    with anyio.fail_after(10):
        while len(after := set(sandbox.app.pool.pids())) < 2:  # noqa: ASYNC110 - the pool has no event for it
            await anyio.sleep(0.01)
    (killed,) = before - after
    assert is_gone(killed)
    assert len(after) == 2


async def test_workers_die_with_the_server_even_when_it_is_killed_while_they_spin() -> None:
    # A worker spinning in a callback loop cannot notice that its stdin closed; PR_SET_PDEATHSIG ends it.
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANDBOX_")}
    env["SANDBOX_WORKERS"] = "2"
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "execute_js",
                "arguments": {"code": "await null; for (;;) {}", "timeout_ms": 60_000},
                "_meta": {"progressToken": "spin"},
            },
        },
    ]
    async with await anyio.open_process([sys.executable, "-m", "sandbox_server"], env=env) as server:
        assert server.stdin is not None and server.stdout is not None
        received = b""
        with anyio.fail_after(WAIT_S):
            for message in messages:
                await server.stdin.send(json.dumps(message).encode() + b"\n")
            # The first progress notification comes half a second into the call: the worker is spinning by then.
            while b"notifications/progress" not in received:
                received += await server.stdout.receive()
        workers = children_of(server.pid)  # the two workers, and the chart renderer when it is installed
        assert len([pid for pid in workers if b"sandbox_server.sandbox.worker" in _cmdline(pid)]) == 2
        server.send_signal(signal.SIGKILL)  # no chance to stop its workers itself
        with anyio.fail_after(WAIT_S):
            await server.wait()
            for pid in workers:
                await wait_for_exit(pid)
    assert all(is_gone(pid) for pid in workers)
