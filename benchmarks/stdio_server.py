"""A real ``sandbox-server`` subprocess driven by the official MCP client over stdio."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from mcp import Client, StdioServerParameters

from benchmarks import procfs

__all__ = ["CallFailed", "RunningServer", "running_server", "server_env", "server_parameters"]


class CallFailed(RuntimeError):
    """A tool call the benchmark expected to succeed came back as an error."""


def server_env() -> dict[str, str]:
    """The server's settings: the caller's ``SANDBOX_*`` variables (stdio_client passes no others).

    The log level is ``warning`` unless the caller chose one: at ``info`` the server writes a line per call to
    stderr, which this process shares with the progress display.
    """
    env = {key: value for key, value in os.environ.items() if key.startswith("SANDBOX_")}
    env.setdefault("SANDBOX_LOG_LEVEL", "warning")
    return env


def server_parameters(**extra_env: str) -> StdioServerParameters:
    """How to start the server: this interpreter, ``-m sandbox_server``, stdio; ``extra_env`` adds settings."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", "sandbox_server"], env={**server_env(), **extra_env}
    )


@dataclass(slots=True)
class RunningServer:
    """A connected client and the server process behind it."""

    client: Client
    pid: int | None

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call tool ``name``; returns its structured content, raises CallFailed on an error result."""
        result = await self.client.call_tool(name, arguments)
        if result.is_error:
            text = " ".join(getattr(block, "text", "") for block in result.content)
            raise CallFailed(f"{name} failed: {text[:500]}")
        return dict(result.structured_content or {})

    async def execute(self, code: str) -> dict[str, Any]:
        """Run ``code`` with ``execute_js``; returns the structured outcome."""
        return await self.call("execute_js", {"code": code})

    async def timed_call(self, name: str, arguments: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        """Milliseconds of one call of tool ``name`` end to end, and its structured content."""
        started = time.perf_counter()
        outcome = await self.call(name, arguments)
        return (time.perf_counter() - started) * 1000, outcome

    async def timed_execute(self, code: str) -> tuple[float, dict[str, Any]]:
        """Milliseconds of one ``execute_js`` call end to end, and its structured outcome."""
        return await self.timed_call("execute_js", {"code": code})

    def processes(self) -> tuple[int | None, list[int]]:
        """The server's pid and its worker processes' pids (its descendants)."""
        if self.pid is None:
            return None, []
        return self.pid, procfs.descendants(self.pid)


def _new_server_pid(before: set[int]) -> int | None:
    for pid in procfs.children(os.getpid()):
        if pid not in before and "sandbox_server" in procfs.cmdline(pid):
            return pid
    return None


@asynccontextmanager
async def running_server(**extra_env: str) -> AsyncIterator[RunningServer]:
    """Start a server (``extra_env`` adds settings), connect and initialise; the server stops when the block ends."""
    before = set(procfs.children(os.getpid()))
    async with Client(server_parameters(**extra_env), mode="legacy") as client:
        yield RunningServer(client, _new_server_pid(before))
