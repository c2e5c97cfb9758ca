"""Replicas of the real server (``sandbox-server serve --transport http``) sharing keys and a state store, each on a
port of its own that it keeps when it is killed and started again."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import httpx2
from anyio.abc import Process

from ..servers import free_port, server_env

KEYS = "replicas-share-this-secret-of-forty-bytes"


def replica_env(store: str, **extra: str) -> dict[str, str]:
    """The environment of a replica: the shared keys and ``store``."""
    return server_env(SANDBOX_STATE_KEYS=KEYS, SANDBOX_STATE_STORE=store, **extra)


@dataclass
class Replica:
    """One server process; ``start()`` again after ``kill()`` or ``stop()`` brings it back on the same port."""

    name: str
    env: dict[str, str]
    args: tuple[str, ...]
    log: Path
    port: int = field(default_factory=free_port)
    process: Process | None = None
    starts: int = 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    async def start(self) -> None:
        command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--port", str(self.port)]
        with self.log.open("ab") as sink:
            self.process = process = await anyio.open_process(
                [*command, *self.args], env=self.env, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink
            )
        self.starts += 1
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(timeout=5) as http:
                while True:
                    if process.returncode is not None:
                        raise RuntimeError(f"{self.name} exited with {process.returncode}: {self.log.read_text()}")
                    try:
                        if (await http.get(self.url + "/healthz")).status_code == 200:
                            return
                    except httpx2.TransportError:
                        pass
                    await anyio.sleep(0.05)  # polling until it answers its health check

    async def kill(self) -> None:
        """SIGKILL: the process ends at once, with whatever it was doing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        with anyio.fail_after(30):
            await self.process.wait()

    async def stop(self, timeout_s: float = 60) -> int:
        """SIGTERM, and the exit status once it has drained."""
        process = self.process
        if process is None or process.returncode is not None:
            return 0 if process is None else int(process.returncode or 0)
        process.send_signal(signal.SIGTERM)
        with anyio.fail_after(timeout_s):
            return await process.wait()

    async def shut(self) -> None:
        """Stop it, killing it if it does not drain in time (the test has failed then, but leaves no process)."""
        try:
            await self.stop()
        finally:
            if self.process is not None and self.process.returncode is None:
                await self.kill()


@asynccontextmanager
async def replicas(
    count: int, folder: Path, env: dict[str, str], *args: str, names: list[str] | None = None
) -> AsyncIterator[list[Replica]]:
    """``count`` replicas started (one after the other: they share two cores) and stopped when the block ends."""
    names = names or [f"replica{index}" for index in range(1, count + 1)]
    started = [Replica(name, env, args, folder / f"{name}.log") for name in names[:count]]

    async def shut_all() -> None:
        async with anyio.create_task_group() as group:
            for replica in started:
                group.start_soon(replica.shut)

    async with AsyncExitStack() as stack:
        stack.push_async_callback(shut_all)
        for replica in started:
            await replica.start()
        yield started
