"""A request whose JSON holds a lone surrogate escape (``"a\\ud800b"``, what ``JSON.stringify`` writes for half a
surrogate pair) is answered under its own id, and the code reads the string ``JSON.parse`` would give: over stdio
and over HTTP, on both revisions. It used to be a parse error with ``id: null``, which left the client waiting.

What the answer echoes of such a string comes back with U+FFFD for the surrogate (JSON in UTF-8 cannot carry it).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2
import pytest

from sandbox_server.transport.surrogates import protect, replaced, restore

from ..servers import MODERN_META, http_server

pytestmark = pytest.mark.anyio

WAIT_S = 30
CODES = "Array.from({ length: input.length }, (_, i) => input.charCodeAt(i))"
META = MODERN_META
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
REVISIONS = [pytest.param("2026-07-28", id="2026-07-28"), pytest.param("2025-11-25", id="2025-11-25")]

# (JSON text of the input as JSON.stringify writes it, the UTF-16 units the code reads)
INPUTS = [
    pytest.param(rb'"a\ud800b"', [0x61, 0xD800, 0x62], id="lone-high"),
    pytest.param(rb'"\udc00"', [0xDC00], id="lone-low"),
    pytest.param(rb'"\uDFFF\uD800"', [0xDFFF, 0xD800], id="low-then-high-upper-case"),
    pytest.param(rb'"\ud83d\ude00\ud83d"', [0xD83D, 0xDE00, 0xD83D], id="a-pair-then-half-of-one"),
    pytest.param(rb'"\\ud800"', [0x5C, 0x75, 0x64, 0x38, 0x30, 0x30], id="escaped-backslash-is-no-escape"),
]


def call_line(request_id: int, arguments: bytes, *, modern: bool, tool: bytes = b"execute_js") -> bytes:
    meta = b'"_meta":' + json.dumps(META).encode() + b"," if modern else b""
    return b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s"name":"%s","arguments":%s}}' % (
        request_id,
        meta,
        tool,
        arguments,
    )


class Stdio:
    """A server process over stdio: initialized for the 2025 revision, or not at all for 2026-07-28 (whose requests
    carry their own ``_meta``)."""

    def __init__(self, process: anyio.abc.Process, revision: str) -> None:
        self.process = process
        self.modern = revision == "2026-07-28"
        self._buffer = b""

    async def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send(line + b"\n")

    async def receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        with anyio.fail_after(WAIT_S):
            while b"\n" not in self._buffer:
                self._buffer += await self.process.stdout.receive()
        line, _, self._buffer = self._buffer.partition(b"\n")
        message: dict[str, Any] = json.loads(line)
        return message

    async def exchange(self, line: bytes) -> dict[str, Any]:
        await self.send(line)
        return await self.receive()


@pytest.fixture(scope="module", params=REVISIONS)
async def stdio(request: pytest.FixtureRequest) -> AsyncIterator[Stdio]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANDBOX_")}
    env["SANDBOX_WORKERS"] = "1"
    async with await anyio.open_process([sys.executable, "-m", "sandbox_server"], env=env) as process:
        server = Stdio(process, request.param)
        if not server.modern:
            assert (await server.exchange(json.dumps(INITIALIZE).encode()))["id"] == 1
            await server.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        yield server
        assert process.stdin is not None
        await process.stdin.aclose()
        with anyio.fail_after(WAIT_S):
            await process.wait()
        assert process.returncode == 0


@pytest.mark.parametrize(("text", "units"), INPUTS)
async def test_a_lone_surrogate_escape_over_stdio_reaches_the_code_as_json_parse_reads_it(
    stdio: Stdio, text: bytes, units: list[int]
) -> None:
    arguments = b'{"code":"' + CODES.encode() + b'","input":' + text + b"}"
    reply = await stdio.exchange(call_line(41, arguments, modern=stdio.modern))
    assert reply["id"] == 41, reply
    assert reply["result"]["structuredContent"]["result"] == units


async def test_what_an_answer_over_stdio_echoes_of_a_lone_surrogate_comes_back_as_a_replacement_character(
    stdio: Stdio,
) -> None:
    modern = stdio.modern
    echoed = await stdio.exchange(call_line(42, b'{"code":"input","input":"a\\ud800b"}', modern=modern))
    assert echoed["result"]["structuredContent"]["result"] == "a\ufffdb"
    refused = await stdio.exchange(call_line(43, b'{"code":"1","session":"s\\udc00"}', modern=modern))
    assert refused["id"] == 43 and refused["result"]["isError"] is True
    assert "\ufffd" in refused["result"]["content"][0]["text"]
    unknown = await stdio.exchange(call_line(44, b"{}", modern=modern, tool=b"\\ud800"))
    assert unknown["id"] == 44 and unknown["error"]["code"] == -32602
    after = await stdio.exchange(call_line(45, b'{"code":"6 * 7"}', modern=modern))
    assert after["result"]["structuredContent"]["result"] == 42


@pytest.mark.parametrize("revision", REVISIONS)
async def test_a_lone_surrogate_escape_over_http_reaches_the_code_under_the_requests_id(revision: str) -> None:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with http_server() as (base, _), httpx2.AsyncClient(timeout=WAIT_S) as http:
        modern = revision == "2026-07-28"
        if modern:
            headers |= {"MCP-Protocol-Version": revision, "Mcp-Method": "tools/call", "Mcp-Name": "execute_js"}
        else:
            opened = await http.post(base + "/mcp", json=INITIALIZE, headers=headers)
            headers |= {"MCP-Protocol-Version": revision, "Mcp-Session-Id": opened.headers["mcp-session-id"]}
        answers = []
        for request_id, arguments in [
            (51, b'{"code":"' + CODES.encode() + b'","input":"a\\ud800b\\udc00"}'),
            (52, b'{"code":"input","input":"a\\ud800b"}'),
            (53, b'{"code":"1","session":"s\\udc00"}'),
        ]:
            response = await http.post(base + "/mcp", content=call_line(request_id, arguments, modern=modern),
                                       headers=headers)  # fmt: skip
            assert response.status_code == 200, response.text
            answers.append(_message(response))
    assert [answer["id"] for answer in answers] == [51, 52, 53]
    assert answers[0]["result"]["structuredContent"]["result"] == [0x61, 0xD800, 0x62, 0xDC00]
    assert answers[1]["result"]["structuredContent"]["result"] == "a\ufffdb"
    assert answers[2]["result"]["isError"] is True and "\ufffd" in answers[2]["result"]["content"][0]["text"]


def _message(response: httpx2.Response) -> dict[str, Any]:
    """The JSON-RPC message of a plain JSON answer or of an event stream's last message."""
    if response.headers.get("content-type", "").startswith("application/json"):
        message: dict[str, Any] = response.json()
        return message
    data = [line[len("data:") :].strip() for line in response.text.splitlines() if line.startswith("data:")]
    message = json.loads(data[-1])
    return message


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        pytest.param(rb'{"a":"x"}', False, id="none"),
        pytest.param(rb'{"a":"\ud83d\ude00"}', False, id="a-pair"),
        pytest.param(rb'{"a":"\\ud800"}', False, id="escaped-backslash"),
        pytest.param(rb'{"a":"\\\ud800"}', True, id="escaped-backslash-then-an-escape"),
        pytest.param(rb'{"\ud800":["\uDBFF", {"b": "\udc00"}]}', True, id="keys-and-nested-values"),
    ],
)
def test_marks_are_made_only_for_lone_surrogate_escapes_and_restore_gives_what_json_loads_gives(
    text: bytes, marked: bool
) -> None:
    protected = protect(text)
    assert (protected is not None) is marked
    parsed = json.loads(text if protected is None else protected)
    assert restore(parsed) == json.loads(text)


def test_a_client_cannot_forge_a_mark_without_the_processs_key() -> None:
    forged = json.loads('{"a": "\\ufdd0' + "0" * 16 + 'd800"}')
    assert restore(forged) == forged
    assert replaced({"k\ud800": ["\udfff", 1]}) == {"k\ufffd": ["\ufffd", 1]}


def test_restoring_walks_values_nested_deeper_than_python_recurses() -> None:
    depth = 50_000
    text = b"[" * depth + rb'"\ud800"' + b"]" * depth
    protected = protect(text)
    assert protected is not None
    nested: Any = json.loads(protected[depth:-depth])  # json.loads recurses: the nesting is built by hand
    for _ in range(depth):
        nested = [nested]
    restored = restore(nested)
    for _ in range(depth):
        restored = restored[0]
    assert restored == "\ud800"
