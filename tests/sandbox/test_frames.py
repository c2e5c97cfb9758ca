"""How the pool cuts a worker's bytes into messages: however the bytes are split on the way, and before and after the
end of the stream."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox_server.sandbox.process import _Answers
from sandbox_server.sandbox.protocol import HEADER, ProtocolError, encode_frame

pytestmark = pytest.mark.anyio

MESSAGES: list[dict[str, Any]] = [
    {"op": "ready", "v8": "14", "miniRacer": "0.14"},
    {"op": "outcome", "id": 1, "ok": True, "resultText": "'caf\u00e9 \U0001f600'", "stdout": "x" * 70_000},
    {"op": "pressure", "id": 2},
]
STREAM = b"".join(encode_frame(message) for message in MESSAGES)


class Listener:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.ends: list[Exception | None] = []

    def listen_to(self, answers: _Answers) -> None:
        answers.listen(self.messages.append, self.ends.append)


def chunks(data: bytes, size: int) -> list[bytes]:
    return [data[start : start + size] for start in range(0, len(data), size)]


@pytest.mark.parametrize("size", [1, 3, HEADER.size, 5, 1000, 65_536, len(STREAM)])
async def test_messages_come_whole_and_in_order_however_the_bytes_are_split(size: int) -> None:
    answers, listener = _Answers(), Listener()
    listener.listen_to(answers)
    for chunk in chunks(STREAM, size):
        answers.data_received(chunk)
    assert listener.messages == MESSAGES
    answers.eof_received()
    answers.connection_lost(None)
    assert listener.ends == [None]
    assert answers.closed.done()


async def test_messages_and_the_end_that_come_before_anyone_listens_wait_for_the_listener() -> None:
    answers, listener = _Answers(), Listener()
    answers.data_received(STREAM)
    answers.eof_received()
    listener.listen_to(answers)
    assert listener.messages == MESSAGES
    assert listener.ends == [None]


async def test_a_lone_surrogate_arrives_as_the_replacement_character() -> None:
    answers, listener = _Answers(), Listener()
    listener.listen_to(answers)
    answers.data_received(encode_frame({"op": "outcome", "stdout": "half \ud83d of it", "\udc00": 1}))
    assert listener.messages == [{"op": "outcome", "stdout": "half \ufffd of it", "\ufffd": 1}]


async def test_a_stream_cut_inside_a_frame_just_ends() -> None:
    answers, listener = _Answers(), Listener()
    listener.listen_to(answers)
    answers.data_received(STREAM[:-3])
    answers.eof_received()
    assert listener.messages == MESSAGES[:-1]
    assert listener.ends == [None]


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(HEADER.pack(8) + b"not json", id="not-json"),
        pytest.param(b"\xff\xff\xff\xffnot a frame", id="too-long"),
        pytest.param(HEADER.pack(6) + b'{"a":1', id="cut-json"),
    ],
)
async def test_bytes_that_are_not_a_frame_end_the_messages_with_a_protocol_error(garbage: bytes) -> None:
    answers, listener = _Answers(), Listener()
    listener.listen_to(answers)
    answers.data_received(encode_frame(MESSAGES[0]) + garbage + encode_frame(MESSAGES[2]))
    answers.data_received(encode_frame(MESSAGES[2]))
    answers.eof_received()
    answers.connection_lost(None)
    assert listener.messages == MESSAGES[:1]
    assert len(listener.ends) == 1
    assert isinstance(listener.ends[0], ProtocolError)


async def test_a_fault_of_the_listener_ends_the_messages_with_it() -> None:
    answers = _Answers()
    ends: list[Exception | None] = []

    def refuse(message: dict[str, Any]) -> None:
        raise RuntimeError("listener fault")

    answers.listen(refuse, ends.append)
    answers.data_received(STREAM)
    assert [str(end) for end in ends] == ["listener fault"]
