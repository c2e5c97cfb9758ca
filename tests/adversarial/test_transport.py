"""Text that UTF-8 and JSON cannot carry, through the real command over stdio: the server answers and carries on.

A result is serialised to UTF-8 JSON by the transport; one string it cannot encode would end the connection (and
over stdio, the server) instead of answering. These tests drive the installed command with raw bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from anyio.abc import Process

pytestmark = pytest.mark.anyio

WAIT_S = 30


class Wire:
    """A JSON-RPC conversation with a server process, written and read as raw lines."""

    def __init__(self, process: Process) -> None:
        self.process = process
        self._buffer = b""
        self._next_id = 100

    async def send_line(self, line: bytes) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send(line + b"\n")

    async def read_message(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        with anyio.fail_after(WAIT_S):
            while b"\n" not in self._buffer:
                self._buffer += await self.process.stdout.receive()
        line, _, self._buffer = self._buffer.partition(b"\n")
        message: dict[str, Any] = json.loads(line)  # every line the server writes is UTF-8 JSON
        return message

    async def call(self, arguments: dict[str, Any] | bytes) -> dict[str, Any]:
        """Call execute_js; ``arguments`` as bytes are sent as they are (they may be invalid UTF-8)."""
        self._next_id += 1
        body = arguments if isinstance(arguments, bytes) else json.dumps(arguments).encode()
        head = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"execute_js","arguments":' % (
            self._next_id
        )
        await self.send_line(head + body + b"}}")
        reply = await self.read_message()
        assert reply.get("id") == self._next_id, reply
        return reply

    async def assert_still_serving(self) -> None:
        reply = await self.call({"code": "6 * 7"})
        assert reply["result"]["structuredContent"]["result"] == 42


@contextlib.asynccontextmanager
async def started_wire() -> AsyncIterator[Wire]:
    """The installed command with one worker, past its handshake (2025-11-25); it must exit cleanly at the end."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANDBOX_")}
    env["SANDBOX_WORKERS"] = "1"
    async with await anyio.open_process([sys.executable, "-m", "sandbox_server"], env=env) as process:
        session = Wire(process)
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        }
        await session.send_line(json.dumps(initialize).encode())
        assert (await session.read_message())["id"] == 1
        await session.send_line(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        yield session
        assert process.stdin is not None
        await process.stdin.aclose()
        with anyio.fail_after(WAIT_S):
            await process.wait()
        assert process.returncode == 0


@pytest.fixture(scope="module")
async def wire() -> AsyncIterator[Wire]:
    async with started_wire() as started:
        yield started


async def test_lone_surrogates_written_by_javascript_reach_a_stdio_client_as_replacement_characters(
    wire: Wire,
) -> None:
    code = "const half = '\\u{1F600}'.slice(0, 1); console.log(half); ({ [half]: half + String.fromCharCode(0xd800) })"
    reply = await wire.call({"code": code})
    result = reply["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["stdout"] == "\ufffd\n"
    assert result["structuredContent"]["result"] == {"\ufffd": "\ufffd\ufffd"}
    assert result["structuredContent"]["resultText"] == "{ '\\ud83d': '\\ud83d\\ud800' }"
    await wire.assert_still_serving()


async def test_invalid_utf8_in_a_request_reaches_javascript_as_replacement_characters(wire: Wire) -> None:
    reply = await wire.call(b'{"code": "[...\'\xff\xfe\xc3\'].map((c) => c.charCodeAt(0))"}')
    assert reply["result"]["structuredContent"]["result"] == [0xFFFD, 0xFFFD, 0xFFFD]
    await wire.assert_still_serving()


async def test_a_lone_surrogate_escape_in_a_request_is_answered_under_its_id_and_the_server_carries_on(
    wire: Wire,
) -> None:
    # More cases, over HTTP too, in test_lone_surrogates.py.
    await wire.send_line(
        b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"execute_js",'
        b'"arguments":{"code":"input.charCodeAt(0)","input":"\\ud800"}}}'
    )
    reply = await wire.read_message()
    assert (reply["id"], reply["result"]["structuredContent"]["result"]) == (7, 0xD800)
    await wire.assert_still_serving()


@pytest.mark.parametrize("session", [b"", b'"session":"deep",'])
async def test_a_deeply_nested_call_is_a_parse_error_and_the_server_carries_on(wire: Wire, session: bytes) -> None:
    # Input nested deeper than the transport parses; and the same in a call that names a session, which the
    # transport's early look at a request (transport/hints.py) once parsed itself and failed on, ending the reading.
    depth = 10_000
    await wire.send_line(
        b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"execute_js",'
        b'"arguments":{"code":"input",' + session + b'"input":' + b"[" * depth + b"]" * depth + b"}}}"
    )
    reply = await wire.read_message()
    assert (reply["id"], reply["error"]["code"]) == (None, -32700)
    await wire.assert_still_serving()
