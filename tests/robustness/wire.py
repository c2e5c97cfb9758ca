"""A hand-driven JSON-RPC conversation with the real server process over stdio, and what /proc says about it.

Unlike an MCP client, :class:`WireSession` sends whatever bytes a test asks for (malformed lines, duplicate ids,
requests before ``initialize``) and keeps every message the server writes, sorted by request id.
"""

from __future__ import annotations

import collections
import json
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.abc

from benchmarks.procfs import children
from benchmarks.procfs import state as process_state

from ..servers import server_env

__all__ = ["INITIALIZE_PARAMS", "WireSession", "children", "is_gone", "open_session", "process_state"]

INITIALIZE_PARAMS: dict[str, Any] = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "robustness-tests", "version": "0"},
}


def is_gone(pid: int) -> bool:
    """Whether ``pid`` has ended and been reaped."""
    return process_state(pid) is None


class WireSession:
    """Raw JSON-RPC over a server subprocess's stdin and stdout.

    A background task reads stdout line by line: replies are filed under their id (a list, since a broken
    client may reuse one), messages with ``id: null`` and notifications are kept in order.
    """

    def __init__(self, process: anyio.abc.Process) -> None:
        self.process = process
        self.replies: dict[Any, list[dict[str, Any]]] = collections.defaultdict(list)
        self.null_id_errors: list[dict[str, Any]] = []
        self.notifications: list[dict[str, Any]] = []
        self.raw_lines: list[bytes] = []
        self.stdout_closed = anyio.Event()
        self.log = ""
        """What the server has written to stderr so far."""
        self._changed = anyio.Event()
        self._next_id = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def next_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def send_line(self, line: bytes) -> None:
        """Write ``line`` and a newline to the server's stdin."""
        assert self.process.stdin is not None
        await self.process.stdin.send(line + b"\n")

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_line(json.dumps(message).encode())

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)

    async def submit(self, method: str, params: dict[str, Any] | None = None, *, request_id: Any = None) -> Any:
        """Send a request without waiting for its reply; returns its id."""
        request_id = self.next_id() if request_id is None else request_id
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        return request_id

    async def reply(self, request_id: Any, count: int = 1) -> dict[str, Any]:
        """The ``count``-th reply with ``request_id`` (waits for it); bound the wait with ``fail_after``."""
        while len(self.replies[request_id]) < count:
            if self.stdout_closed.is_set():
                raise AssertionError(f"stdout closed before reply {count} to request {request_id!r}")
            await self._changed.wait()
        return self.replies[request_id][count - 1]

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.reply(await self.submit(method, params))

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tools/call; returns the JSON-RPC reply (``result`` or ``error``)."""
        return await self.request("tools/call", {"name": name, "arguments": arguments})

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        """Wait until ``condition()`` holds, checking it after each message from the server."""
        while not condition():
            if self.stdout_closed.is_set():
                raise AssertionError("stdout closed before the awaited message arrived")
            await self._changed.wait()

    async def wait_for_log(self, text: str) -> None:
        """Wait until the server's stderr contains ``text``."""
        while text not in self.log:
            if self.process.returncode is not None:
                raise AssertionError(f"the server exited before logging {text!r}")
            await self._changed.wait()

    async def next_null_id_error(self, seen: int) -> dict[str, Any]:
        """The first ``id: null`` error after the ``seen`` already received."""
        while len(self.null_id_errors) <= seen:
            if self.stdout_closed.is_set():
                raise AssertionError("stdout closed before an error with id null arrived")
            await self._changed.wait()
        return self.null_id_errors[seen]

    async def initialize(self) -> dict[str, Any]:
        reply = await self.request("initialize", INITIALIZE_PARAMS)
        await self.notify("notifications/initialized")
        return reply

    async def close_stdin(self) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.aclose()

    async def wait_for_exit(self) -> int:
        """Wait until stdout is closed and the process has exited; returns its exit status."""
        await self.stdout_closed.wait()
        return await self.process.wait()

    async def read_stdout(self) -> None:
        assert self.process.stdout is not None
        buffer = bytearray()
        try:
            async for chunk in self.process.stdout:
                buffer += chunk
                while (end := buffer.find(b"\n")) >= 0:
                    line = bytes(buffer[:end])
                    del buffer[: end + 1]
                    self._file(line)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            pass
        finally:
            if buffer:
                self.raw_lines.append(bytes(buffer))
            self.stdout_closed.set()
            self._wake()

    def _file(self, line: bytes) -> None:
        self.raw_lines.append(line)
        message = json.loads(line)  # anything but JSON on stdout fails the test here
        assert message.get("jsonrpc") == "2.0", message
        if "id" not in message:
            self.notifications.append(message)
        elif message["id"] is None:
            self.null_id_errors.append(message)
        else:
            self.replies[message["id"]].append(message)
        self._wake()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()


@asynccontextmanager
async def open_session(*, workers: int = 1, initialize: bool = True, **env: str) -> AsyncIterator[WireSession]:
    """Start ``python -m sandbox_server`` with ``SANDBOX_WORKERS=workers`` (plus ``env``) and talk to it.

    When the block ends the process is killed if it is still running; its stderr is printed on failure.
    """
    command = [sys.executable, "-m", "sandbox_server"]
    environment = server_env(SANDBOX_WORKERS=str(workers), SANDBOX_LOG_LEVEL="info", **env)
    async with await anyio.open_process(command, env=environment) as process, anyio.create_task_group() as group:
        session = WireSession(process)
        group.start_soon(session.read_stdout)
        group.start_soon(_echo_stderr, session)
        try:
            if initialize:
                with anyio.fail_after(60):
                    reply = await session.initialize()
                assert reply["result"]["protocolVersion"] == INITIALIZE_PARAMS["protocolVersion"]
            yield session
        finally:
            if process.returncode is None:
                process.kill()
            with anyio.CancelScope(shield=True), anyio.fail_after(30):
                await process.wait()
            group.cancel_scope.cancel()


async def _echo_stderr(session: WireSession) -> None:
    """Copy the server's log to this process's stderr, where pytest shows it for a failing test, and keep it."""
    assert session.process.stderr is not None
    async for chunk in session.process.stderr:
        text = chunk.decode(errors="replace")
        sys.stderr.write(text)
        session.log += text
        session._wake()
