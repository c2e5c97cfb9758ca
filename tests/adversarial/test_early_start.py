"""Attacks on the early start of calls over stdio (``sandbox_server/tools/early.py``): the server reads a small
``execute_js`` call from the request's text and starts its job before the SDK has parsed the request. A request the
SDK then refuses, one cancelled at once, one that reads differently to the SDK than to that first look, and two
requests under one id must neither hold the worker nor change any answer.

The server runs with one worker, so that a run left going would hold up the next call: every "the server carries on"
below is bounded at :data:`PROMPT_S`, far under the 30 s the attacking code asks for and over the time a worker
takes to be replaced."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest

from .test_transport import Wire, started_wire

pytestmark = pytest.mark.anyio

PROMPT_S = 10
"""Longest wait for the call after an attack (the attacking code would run 30 s)."""
LOOP = {"code": "while (true) {}", "timeout_ms": 30_000}
PADDING = b" " * (70 * 1024)
"""Whitespace that makes a request too long to be read early (MAX_EARLY_BYTES is 64 KiB): the SDK's reading only."""


def _request(request_id: int, params: bytes, padding: bytes = b"") -> bytes:
    return b'{"jsonrpc":"2.0","id":%d,"method":"tools/call",%s"params":%s}' % (request_id, padding, params)


def _params(arguments: dict[str, Any] | bytes, **extra: Any) -> bytes:
    body = arguments if isinstance(arguments, bytes) else json.dumps(arguments).encode()
    more = b"".join(b',"%s":%s' % (key.encode(), json.dumps(value).encode()) for key, value in extra.items())
    return b'{"name":"execute_js","arguments":' + body + more + b"}"


async def _promptly(wire: Wire) -> None:
    with anyio.fail_after(PROMPT_S):
        await wire.assert_still_serving()


@pytest.fixture
async def wire() -> AsyncIterator[Wire]:
    async with started_wire() as started:
        await _promptly(started)  # the worker is up
        yield started


@pytest.mark.parametrize("extra", [{"_meta": "not an object"}, {"_meta": {"progressToken": [1]}}])
async def test_a_call_the_sdk_refuses_after_it_started_early_is_stopped_at_its_answer(
    wire: Wire, extra: dict[str, Any]
) -> None:
    await wire.send_line(_request(50, _params(LOOP, **extra)))
    reply = await wire.read_message()
    assert (reply["id"], reply["error"]["code"]) == (50, -32602)
    await _promptly(wire)


async def test_a_call_cancelled_as_soon_as_it_is_sent_is_stopped(wire: Wire) -> None:
    await wire.send_line(_request(51, _params(LOOP)))
    await wire.send_line(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":51}}')
    await _promptly(wire)  # the cancelled request gets no answer: the next one is the first to come back


async def test_a_call_with_its_argument_named_twice_answers_as_the_sdk_reads_it(wire: Wire) -> None:
    # A first look that read the arguments otherwise than the SDK must not answer for it.
    arguments = b'{"code":"input.n + 1","input":{"n":1},"code":"input.n * 40 + 2"}'
    await wire.send_line(_request(52, _params(arguments)))
    early = await wire.read_message()
    await wire.send_line(_request(53, _params(arguments), PADDING))
    sdk_only = await wire.read_message()
    assert early["id"] == 52 and sdk_only["id"] == 53
    assert early["result"]["structuredContent"]["result"] == sdk_only["result"]["structuredContent"]["result"]
    await _promptly(wire)


def _gist(reply: dict[str, Any]) -> Any:
    return reply["result"]["structuredContent"]["result"] if "result" in reply else reply["error"]["code"]


async def test_two_calls_under_one_id_get_the_answers_the_sdk_gives_them(wire: Wire) -> None:
    answers = []
    for request_id, padding in ((54, b""), (55, PADDING)):
        first, second = (_request(request_id, _params({"code": code}), padding) for code in ("'first'", "'second'"))
        await wire.send_line(first + b"\n" + second)
        replies = [await wire.read_message() for _ in range(2)]
        assert {reply["id"] for reply in replies} == {request_id}
        answers.append(sorted(map(str, map(_gist, replies))))
    assert answers[0] == answers[1]
    await _promptly(wire)


async def test_a_call_that_names_a_session_or_arguments_that_fail_their_checks_answers_as_before(wire: Wire) -> None:
    await wire.send_line(_request(56, _params({"code": 42})))
    refused = await wire.read_message()
    assert refused["id"] == 56 and refused["result"]["isError"] is True
    await wire.send_line(_request(57, _params({"code": "let kept = 6 * 7", "session": "s"})))
    assert (await wire.read_message())["result"]["structuredContent"]["ok"] is True
    await wire.send_line(_request(58, _params({"code": "kept", "session": "s"})))
    assert (await wire.read_message())["result"]["structuredContent"]["result"] == 42
    await _promptly(wire)
