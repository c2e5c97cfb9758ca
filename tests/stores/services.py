"""The real services the scale-out tests run: Redis and HAProxy from Debian's packages, on 127.0.0.1 with free ports
and a temporary folder each, started and stopped by the tests (``.ci/run`` installs both packages, so CI never
skips). A test finds the binary absent only on a machine that lacks the package, and is skipped saying so."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from anyio.abc import Process

from ..servers import free_port

REPO = Path(__file__).resolve().parents[2]
HAPROXY_CONFIG = REPO / "deploy" / "haproxy.cfg"


def binary(name: str) -> str:
    """The path of ``name``; the test is skipped, saying what to install, where it is absent."""
    found = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(p, os.X_OK)), None
    )
    if found is None:
        package = {"redis-server": "redis-server", "haproxy": "haproxy"}[name]
        pytest.skip(f"{name} is not installed (apt-get install -y {package}; .ci/run installs it)")
    return found


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class Redis:
    """A redis-server of the test's own; ``stop()`` and ``start()`` take it away and bring it back on its port."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            binary("redis-server"),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.folder),
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", str(self.folder / "redis.log"),
            "--maxmemory-policy", "noeviction",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while not _answers_ping(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: see {self.folder}/redis.log")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer PING within 15 s")
            time.sleep(0.02)  # polling until it accepts connections

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        self.process = None

    def command(self, *words: str) -> bytes:
        """Send one command; its reply's first line."""
        request = f"*{len(words)}\r\n" + "".join(f"${len(word.encode())}\r\n{word}\r\n" for word in words)
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
            sock.sendall(request.encode())
            return sock.recv(4096).split(b"\r\n", 1)[0]

    def flush(self) -> None:
        assert self.command("FLUSHALL") == b"+OK"

    def refuse_writes(self, refuse: bool) -> None:
        """Make Redis refuse every write (a Redis past its maxmemory), or take writes again."""
        assert self.command("CONFIG", "SET", "maxmemory", "1" if refuse else "0") == b"+OK"


@contextmanager
def redis_server(folder: Path) -> Iterator[Redis]:
    """A running redis-server, stopped when the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    redis = Redis(folder)
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@dataclass
class Balancer:
    """HAProxy running ``deploy/haproxy.cfg`` in front of the replicas, logging each request to ``log``."""

    url: str
    process: Process
    log: Path

    def lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def requests_by_id(self) -> dict[str, list[Logged]]:
        """Every request HAProxy logged, by the X-Request-Id it carried (a client's connection and first call share
        one: its tools/list goes out under the call's id)."""
        found: dict[str, list[Logged]] = {}
        for line in self.lines():
            match = _REQUEST_LINE.search(line)
            if match is not None:
                logged = Logged(match["id"], float(match["accepted"]), match["server"], int(match["status"]))
                found.setdefault(logged.id, []).append(logged)
        return found

    def seen(self, pattern: str) -> int:
        """How many log lines match ``pattern`` (HAProxy logs each server going DOWN or coming UP)."""
        return sum(1 for line in self.lines() if re.search(pattern, line))


@dataclass(frozen=True)
class Logged:
    """One request as HAProxy logged it."""

    id: str
    accepted: float
    """When HAProxy accepted it (seconds since the epoch)."""
    server: str
    """The replica it went to last (``<NOSRV>`` when none)."""
    status: int
    """The HTTP status HAProxy answered (-1 when the connection was cut before one)."""


# The log-format of deploy/haproxy.cfg: request id, accept time, backend/server, status, and more.
_REQUEST_LINE = re.compile(
    r"request id=(?P<id>\S+) accepted=(?P<accepted>[\d.]+) server=\S+/(?P<server>\S+) status=(?P<status>-?\d+) "
)


@asynccontextmanager
async def balancer(folder: Path, replicas: list[str]) -> AsyncIterator[Balancer]:
    """HAProxy on a free port in front of ``replicas`` (``host:port`` each), until the block ends."""
    port = free_port()
    log = folder / "haproxy.log"
    env = {
        **os.environ,
        "SANDBOX_LB_BIND": f"127.0.0.1:{port}",
        **{f"SANDBOX_REPLICA_{index}": address for index, address in enumerate(replicas, 1)},
    }
    check = await anyio.run_process([binary("haproxy"), "-c", "-f", str(HAPROXY_CONFIG)], env=env, check=False)
    assert check.returncode == 0, check.stderr.decode()
    with log.open("wb") as sink:
        process = await anyio.open_process(
            [binary("haproxy"), "-db", "-f", str(HAPROXY_CONFIG)], env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        with anyio.fail_after(15):
            while not _listening(port):
                assert process.returncode is None, log.read_text()
                await anyio.sleep(0.02)  # polling until HAProxy listens
        yield Balancer(f"http://127.0.0.1:{port}", process, log)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGUSR1)  # soft stop: ends once its connections have
            with anyio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@contextmanager
def upstream_writes(folder: Path, name: str) -> Iterator[str]:
    """The test upstream ``writes`` over Streamable HTTP, one process all replicas call (so its record of what was
    done is the world's); yields its URL."""
    port_file = folder / f"{name}.port"
    command = [sys.executable, "-m", "tests.upstream.servers.writes", "--http", "0", "--port-file", str(port_file)]
    process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists():
            assert process.poll() is None, "the upstream test server exited at start"
            assert time.monotonic() < deadline, "the upstream test server did not start within 30 s"
            time.sleep(0.02)  # polling until it has written its port
        yield f"http://127.0.0.1:{int(port_file.read_text())}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=15)
