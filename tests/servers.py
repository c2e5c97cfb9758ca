"""Starting the real command as a subprocess for end-to-end tests."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import httpx2
from anyio.abc import Process


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


MODERN_META: dict[str, object] = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "tests", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
"""The ``_meta`` a hand-written 2026-07-28 request carries in place of a handshake."""


def server_env(**extra: str) -> dict[str, str]:
    """The test process's environment without SANDBOX_* settings, plus ``extra``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANDBOX_")}
    env.update({"SANDBOX_WORKERS": "1", **extra})
    return env


@asynccontextmanager
async def http_server(*args: str, env: dict[str, str] | None = None) -> AsyncIterator[tuple[str, Process]]:
    """Run ``sandbox-server serve --transport http`` on a free port until the block ends; yields its base URL."""
    port = free_port()
    command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--port", str(port), *args]
    base = f"http://127.0.0.1:{port}"
    async with await anyio.open_process(command, env=env or server_env()) as process:
        try:
            with anyio.fail_after(30):
                async with httpx2.AsyncClient() as http:
                    while True:
                        if process.returncode is not None:
                            raise RuntimeError(f"server exited with {process.returncode}")
                        try:
                            if (await http.get(base + "/healthz")).status_code == 200:
                                break
                        except httpx2.TransportError:
                            await anyio.sleep(0.05)  # polling until the port accepts connections
            yield base, process
        finally:
            if process.returncode is None:
                process.terminate()
                with anyio.fail_after(30):
                    await process.wait()
