"""The real command over stdio: every tool answers, and stdout carries nothing but JSON-RPC messages."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import pytest
from anyio.abc import Process

pytestmark = pytest.mark.anyio


class StdioSession:
    """A hand-driven JSON-RPC conversation with a server subprocess, keeping every stdout line."""

    def __init__(self, process: Process) -> None:
        self.process = process
        self.lines: list[bytes] = []
        self._buffer = b""
        self._next_id = 0

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send(json.dumps(message).encode() + b"\n")

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        await self.send(message)
        while True:
            reply = json.loads(await self._line())
            if reply.get("id") == self._next_id:
                return reply

    async def drain(self) -> bytes:
        """Everything still on stdout until the server closes it."""
        assert self.process.stdout is not None
        rest = self._buffer
        while True:
            try:
                rest += await self.process.stdout.receive()
            except anyio.EndOfStream:
                return rest

    async def _line(self) -> bytes:
        assert self.process.stdout is not None
        while b"\n" not in self._buffer:
            self._buffer += await self.process.stdout.receive()
        line, _, self._buffer = self._buffer.partition(b"\n")
        self.lines.append(line)
        return line


async def test_the_installed_command_serves_every_tool_over_stdio_with_a_clean_stdout() -> None:
    env = {**os.environ, "SANDBOX_WORKERS": "1"}
    command = [sys.executable, "-m", "sandbox_server"]
    async with await anyio.open_process(command, env=env) as process:
        session = StdioSession(process)
        with anyio.fail_after(60):
            init = await session.request(
                "initialize",
                {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "0"},
                },
            )
            assert init["result"]["protocolVersion"] == "2025-11-25"
            assert init["result"]["serverInfo"]["name"] == "sandbox-server"
            await session.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            listed = await session.request("tools/list")
            names = {tool["name"] for tool in listed["result"]["tools"]}
            assert names == {"add", "divide", "date_diff", "execute_js"}
            calls = {
                "add": ({"a": "99999999999999999999", "b": 1}, "Result: 100000000000000000000"),
                "divide": ({"a": "0.3", "b": "0.1"}, "Result: 3"),
                "date_diff": ({"start": "2024-01-01", "end": "2024-03-01"}, "60"),
                "execute_js": ({"code": "console.log('hi'); [3,1,2].sort()"}, "Result: [ 1, 2, 3 ]"),
            }
            for name, (arguments, expected) in calls.items():
                reply = await session.request("tools/call", {"name": name, "arguments": arguments})
                result = reply["result"]
                assert result.get("isError") is not True, (name, result)
                assert expected in result["content"][0]["text"], (name, result)
                assert isinstance(result["structuredContent"], dict)
            unknown = await session.request("tools/call", {"name": "nope", "arguments": {}})
            assert unknown["error"]["code"] == -32602
        assert process.stdin is not None
        await process.stdin.aclose()
        with anyio.fail_after(30):
            rest = await session.drain()
            await process.wait()
    assert process.returncode == 0
    assert rest.strip() == b"", f"stdout after the last reply: {rest[:200]!r}"
    for line in session.lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
