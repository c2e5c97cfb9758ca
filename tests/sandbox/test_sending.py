"""A long message goes to a worker a slice at a time, never held whole as its encoding besides its text; and a
message cut short, whose rest would be read as the next message, ends the worker instead."""

from __future__ import annotations

import os
import signal

import anyio
import pytest

from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.process import WorkerProcess
from sandbox_server.sandbox.protocol import (
    ENCODE_CHUNK_CHARS,
    HEADER,
    MAX_FRAME_BYTES,
    ProtocolError,
    encode_frames,
    iter_frames,
)

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("x" * (3 * ENCODE_CHUNK_CHARS + 5), id="ascii"),
        pytest.param("\u00e9\U0001f600\ud800" * ENCODE_CHUNK_CHARS, id="wide-and-lone-surrogates"),
    ],
)
def test_the_pieces_made_one_at_a_time_are_the_frames_and_none_is_larger_than_a_slice(text: str) -> None:
    message = {"op": "run", "id": 1, "code": "1", "input": text, "files": ""}
    pieces = list(iter_frames(message))
    assert b"".join(pieces) == b"".join(encode_frames(message))
    assert max(len(piece) for piece in pieces) <= 4 * ENCODE_CHUNK_CHARS  # UTF-8 takes at most 4 bytes a character
    (length,) = HEADER.unpack(pieces[1])
    assert length == len(text.encode("utf-8", "surrogatepass"))


def test_a_field_too_long_for_a_frame_is_refused_before_any_piece_is_made() -> None:
    pieces = iter_frames({"op": "run", "input": "x" * (MAX_FRAME_BYTES + 1)})
    with pytest.raises(ProtocolError, match="exceeds the frame limit"):
        next(pieces)


async def test_a_message_cut_short_while_the_worker_does_not_read_ends_the_worker() -> None:
    worker = await WorkerProcess.spawn(SandboxLimits())
    try:
        os.kill(worker.pid, signal.SIGSTOP)  # it reads nothing more: the pipe fills
        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                group.start_soon(worker.send, {"op": "run", "id": 1, "code": "1", "input": "x" * (64 << 20)})
                await anyio.wait_all_tasks_blocked()  # waiting for room in the pipe, partway through the message
                group.cancel_scope.cancel()
            await worker.wait()  # a stopped process ends only when killed
        assert worker.returncode == -signal.SIGKILL
    finally:
        await worker.reap()
