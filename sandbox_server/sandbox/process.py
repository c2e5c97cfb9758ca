"""One worker process as the pool sees it: start it, exchange frames, kill it, tell how it died.

Starting, the environment, the stderr tail, killing and reaping are :class:`~sandbox_server.platform.child.Child`'s,
as for every supervised child. The frames travel on pipes of the pool's own, read and written by asyncio transports
directly: a message is written in one go, all its frames together, and the frames that arrive are cut into messages
in the transport's callback and handed to the pool there, with no task to wake in between.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterable
from typing import Any

import anyio

from sandbox_server.errors import SandboxError
from sandbox_server.platform.child import Child, child_command, child_env
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import ErrorInfo, crash_error, memory_error
from sandbox_server.sandbox.protocol import (
    HEADER,
    decode_frame,
    frame_length,
    iter_frames,
    may_hold_surrogates,
    single_frame,
    well_formed,
)

__all__ = [
    "OOM_MARKERS",
    "STDERR_TAIL_LINES",
    "WORKER_MODULE",
    "MessageHandler",
    "StreamEndHandler",
    "WorkerProcess",
    "describe_death",
    "engine_versions",
    "worker_command",
]

logger = logging.getLogger(__name__)

WORKER_MODULE = "sandbox_server.sandbox.worker"
STDERR_TAIL_LINES = 50
"""Lines of a worker's stderr kept to explain its death."""
OOM_MARKERS = ("out of memory", "invalid table size", "allocation failed")
"""Phrases (lower case) of V8's fatal out-of-memory reports."""
_WRITE_BUFFER_BYTES = 2 * 1_048_576
"""Unwritten bytes of a worker's stdin past which the next slice of a long message waits (see ``send``)."""


def describe_death(returncode: int | None, stderr_tail: Iterable[str], memory_limit_mb: int) -> ErrorInfo:
    """The error of a job whose worker died: ``memory`` when it ran out of memory, else ``crashed``.

    Out of memory means V8 reported it on stderr, or the process ended on a trap without any fatal report.

    Args:
        returncode: The process's exit status (negative: the signal that killed it), None if unknown.
        stderr_tail: The last lines the process wrote to stderr.
        memory_limit_mb: The memory limit, named in a memory error.
    """
    lines = list(stderr_tail)
    if any(marker in line.lower() for line in lines for marker in OOM_MARKERS):
        return memory_error(memory_limit_mb)
    if returncode == -signal.SIGTRAP and not any(line.startswith("# Fatal") for line in lines):
        # V8 reports its fatal errors before it traps. The allocator of V8's own objects (PartitionAlloc)
        # traps without a word when it cannot get memory, which happens when off-heap buffers have used up
        # the RLIMIT_DATA allowance and a garbage collection then needs a little more.
        return memory_error(memory_limit_mb)
    if returncode is None:
        return crash_error("the worker process stopped responding")
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return crash_error(f"the worker process was killed by {name}")
    return crash_error(f"the worker process exited with status {returncode}")


def worker_command(limits: SandboxLimits) -> list[str]:
    """The command line that starts one worker process with ``limits``."""
    return child_command(WORKER_MODULE, limits.to_args())


MessageHandler = Callable[[dict[str, Any]], None]
"""Takes one message from a worker, on the event loop, as it arrives."""
StreamEndHandler = Callable[[Exception | None], None]
"""Told that a worker's messages have ended: None at the end of the stream (a frame cut short included), the
:class:`ProtocolError` of bytes that are not a frame, or the error that stopped the reading."""


class _Requests(asyncio.BaseProtocol):
    """The pool's end of a worker's stdin; ``closed`` is done once the transport has let go of the pipe, and
    :meth:`room` waits while the transport holds more unwritten bytes than its high-water mark."""

    def __init__(self) -> None:
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writable = asyncio.Event()
        self._writable.set()

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    async def room(self) -> None:
        await self._writable.wait()

    def connection_lost(self, exc: Exception | None) -> None:
        self._writable.set()
        if not self.closed.done():
            self.closed.set_result(None)


class _Answers(asyncio.Protocol):
    """The pool's end of a worker's answers: the bytes cut into messages as they arrive.

    Messages and the end wait here until :meth:`listen` names who takes them; after the end nothing is delivered.
    A lone surrogate in a message's strings (JavaScript allows them) is delivered as U+FFFD.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._waiting: collections.deque[dict[str, Any]] = collections.deque()
        self._on_message: MessageHandler | None = None
        self._on_end: StreamEndHandler | None = None
        self._ended = False
        self._end: Exception | None = None
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def listen(self, on_message: MessageHandler, on_end: StreamEndHandler) -> None:
        self._on_message, self._on_end = on_message, on_end
        while self._waiting:
            on_message(self._waiting.popleft())
        if self._ended:
            on_end(self._end)

    def data_received(self, data: bytes) -> None:
        if self._ended:
            return
        buffer = self._buffer
        buffer += data
        start = 0
        try:
            while not self._ended and len(buffer) - start >= HEADER.size:
                end = start + HEADER.size + frame_length(buffer[start : start + HEADER.size])
                if len(buffer) < end:
                    break
                body = bytes(buffer[start + HEADER.size : end])
                start = end
                message = decode_frame(body)
                self._deliver(well_formed(message) if may_hold_surrogates(body) else message)
        except Exception as exc:  # a ProtocolError, or a fault the pool's handler let through
            self._finish(exc)
        finally:
            del buffer[:start]

    def eof_received(self) -> bool:
        self._finish(None)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish(exc)
        if not self.closed.done():
            self.closed.set_result(None)

    def _deliver(self, message: dict[str, Any]) -> None:
        if self._on_message is None:
            self._waiting.append(message)
        else:
            self._on_message(message)

    def _finish(self, error: Exception | None) -> None:
        if self._ended:
            return
        self._ended, self._end = True, error
        self._buffer.clear()
        if self._on_end is not None:
            self._on_end(error)


class WorkerProcess:
    """A running worker process and its pipes.

    Attributes:
        spawn_ms: How long starting the process took (until the pipes were open, not until ready).
    """

    def __init__(
        self,
        child: Child,
        requests: tuple[asyncio.WriteTransport, _Requests],
        answers: tuple[asyncio.ReadTransport, _Answers],
        spawn_ms: float,
    ) -> None:
        self._child = child
        self.spawn_ms = spawn_ms
        self._requests, self._requests_end = requests
        self._requests.set_write_buffer_limits(high=_WRITE_BUFFER_BYTES)
        self._sending = anyio.Lock()
        self._answers, self._answers_end = answers

    @property
    def stderr_tail(self) -> collections.deque[str]:
        """The last :data:`STDERR_TAIL_LINES` lines of its stderr."""
        return self._child.tail

    @classmethod
    async def spawn(cls, limits: SandboxLimits) -> WorkerProcess:
        """Start a worker process; it announces itself with a ``ready`` message once its first isolate is up."""
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        stdin_read, stdin_write = os.pipe()
        stdout_read, stdout_write = os.pipe()
        files = [os.fdopen(stdin_write, "wb", 0), os.fdopen(stdout_read, "rb", 0)]
        transports: list[asyncio.BaseTransport] = []
        try:
            requests = await loop.connect_write_pipe(_Requests, files[0])
            transports.append(requests[0])
            answers = await loop.connect_read_pipe(_Answers, files[1])
            transports.append(answers[0])
            child = await Child.spawn(
                worker_command(limits),
                label="worker",
                tail_lines=STDERR_TAIL_LINES,
                stdin=stdin_read,
                stdout=stdout_write,
            )
        except BaseException:
            for transport in transports:
                transport.close()
            for file in files[len(transports) :]:
                file.close()
            raise
        finally:
            # The worker's ends, which the process has its own copies of by now.
            os.close(stdin_read)
            os.close(stdout_write)
        return cls(child, requests, answers, (time.perf_counter() - started) * 1000)

    @property
    def pid(self) -> int:
        """The operating-system process id."""
        return self._child.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: killed by that signal)."""
        return self._child.returncode

    async def send(self, message: dict[str, Any]) -> None:
        """Write one message to the worker's stdin, all its frames, with no other message between them.

        A long field (a files payload, an input) is encoded a slice at a time and each slice written once the pipe
        has taken most of the one before, so that the server holds its text and a few megabytes of its encoding,
        never the whole encoding (a payload of 64 MiB was held three times: text, encoding, and the transport's
        copy). A message cut short (cancelled while waiting for the pipe) would leave the worker reading the next
        one as its rest, so the process is killed then; its supervisor replaces it.

        Raises:
            anyio.BrokenResourceError: The pipe is closed (the process died).
        """
        # One frame and nobody else writing: written at once, without the lock's turn of the event loop (a host
        # call's answer, a run request without long fields).
        if self.send_now(message):
            return
        async with self._sending:
            if self._requests.is_closing():
                raise anyio.BrokenResourceError
            started = False
            try:
                for piece in iter_frames(message):
                    if started:
                        await self._requests_end.room()
                        if self._requests.is_closing():
                            raise anyio.BrokenResourceError
                    self._requests.write(piece)
                    started = True
            except BaseException:
                if started:
                    self.kill()
                raise

    def send_now(self, message: dict[str, Any]) -> bool:
        """Write ``message`` at once if it is one frame and no other message is being written; whether it was.

        Raises:
            anyio.BrokenResourceError: The pipe is closed (the process died).
        """
        if self._sending.locked():
            return False
        frame = single_frame(message)
        if frame is None:
            return False
        if self._requests.is_closing():
            raise anyio.BrokenResourceError
        self._requests.write(frame)
        return True

    def listen(self, on_message: MessageHandler, on_end: StreamEndHandler) -> None:
        """Hand each message, from the first, to ``on_message`` as it arrives, and then the end of the messages to
        ``on_end`` (see :data:`StreamEndHandler`); both are called on the event loop and must not block."""
        self._answers_end.listen(on_message, on_end)

    def kill(self) -> None:
        """Send SIGKILL unless the process has already ended (see :meth:`Child.kill`)."""
        self._child.kill()

    async def wait(self) -> None:
        """Wait until the process has ended."""
        await self._child.process.wait()

    async def reap(self) -> None:
        """Kill the process, wait for it to end and for its last stderr lines, and close its pipes."""
        self.kill()
        with anyio.CancelScope(shield=True):
            await self._child.reap()
            if not self._requests.is_closing():
                self._requests.abort()
            self._answers.close()
            await self._requests_end.closed
            await self._answers_end.closed

    def last_words(self) -> str:
        """The exit status and the most telling stderr lines, for logs and error messages."""
        fatal = [line.strip("# ") for line in self.stderr_tail if line.startswith("# ") and line.strip("# ")]
        lines = fatal or list(self.stderr_tail)[-3:]
        return f"exit status {self.returncode}; " + (" | ".join(lines) or "nothing on stderr")

    def death(self, memory_limit_mb: int) -> ErrorInfo:
        """The error to report for a job this process was running when it died (call after :meth:`reap`)."""
        return describe_death(self.returncode, self.stderr_tail, memory_limit_mb)


def engine_versions() -> dict[str, str]:
    """``{"v8": ..., "miniRacer": ...}`` of the engine the workers run, asked of a short-lived worker process.

    Raises:
        SandboxError: The worker could not report them.
    """
    command = child_command(WORKER_MODULE, ["--versions"])
    try:
        completed = subprocess.run(command, env=child_env(), cwd="/", capture_output=True, timeout=60, check=True)
        versions = json.loads(completed.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        raise SandboxError(f"could not ask the JavaScript engine for its version: {exc}") from exc
    return {"v8": str(versions["v8"]), "miniRacer": str(versions["miniRacer"])}
