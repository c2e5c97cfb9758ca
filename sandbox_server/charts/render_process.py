"""One render process as the server holds it: its pipes, the tail of its stderr (read on a thread, for the log and
for the last lines that explain a death), whether it has announced itself ready, and how to end it."""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Mapping
from typing import Any

import anyio
import anyio.abc
import anyio.to_thread
from anyio.streams.buffered import BufferedByteReceiveStream

from sandbox_server.charts.limits import RenderLimits
from sandbox_server.sandbox.protocol import HEADER, ProtocolError, decode_frame, encode_frame, frame_length

__all__ = ["WORKER_MODULE", "RenderProcess"]

logger = logging.getLogger(__name__)

WORKER_MODULE = "sandbox_server.charts.render_worker"
_STDERR_TAIL_LINES = 20
_MAX_STDERR_LINE = 4096
_REAP_TIMEOUT_S = 5.0
# Variables the render process inherits; the rest of the server's environment (tokens, proxies) stays out.
_INHERITED_ENV = ("PATH", "PYTHONHOME", "TMPDIR", "SANDBOX_PLATFORM")
_FIXED_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
_OOM_MARKERS = ("memory allocation of", "out of memory", "allocation failed", "cannot allocate memory")


def _env() -> dict[str, str]:
    env = {name: os.environ[name] for name in _INHERITED_ENV if name in os.environ} | _FIXED_ENV
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    return env


class RenderProcess:
    """One render process: its pipes, its stderr tail, and whether it has announced itself ready."""

    def __init__(self, process: anyio.abc.Process, stderr_fd: int) -> None:
        assert process.stdin is not None and process.stdout is not None
        self._process = process
        self._stdin = process.stdin
        self._stdout = BufferedByteReceiveStream(process.stdout)
        self._header: bytes | None = None
        self.started_at = anyio.current_time()
        self.tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        self.ready: dict[str, Any] | None = None
        self._reaped = False
        self._stderr = threading.Thread(target=self._follow, args=(stderr_fd,), name=f"render-{self.pid}", daemon=True)
        self._stderr.start()

    @classmethod
    async def spawn(cls, limits: RenderLimits, warm: bool) -> RenderProcess:
        command = [sys.executable, "-P", "-m", WORKER_MODULE, *limits.to_args(), *([] if warm else ["--no-warm"])]
        read_fd, write_fd = os.pipe()
        try:
            process = await anyio.open_process(command, env=_env(), cwd="/", start_new_session=True, stderr=write_fd)
        except BaseException:
            os.close(read_fd)
            raise
        finally:
            os.close(write_fd)
        return cls(process, read_fd)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    def _follow(self, fd: int) -> None:
        with open(fd, "rb") as stream:
            while line := stream.readline(_MAX_STDERR_LINE):
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self.tail.append(text)
                    logger.debug("render process %d: %s", self.pid, text)

    async def send(self, message: Mapping[str, Any]) -> None:
        await self._stdin.send(encode_frame(message))

    async def receive(self, max_bytes: int) -> dict[str, Any]:
        """The next message. Cancelling it loses nothing: a later call goes on where this one stopped (the header
        read so far is kept, and the buffered stream keeps a partial body)."""
        if self._header is None:
            self._header = await self._stdout.receive_exactly(HEADER.size)
        length = frame_length(self._header)
        if length > max_bytes:
            raise ProtocolError(f"the render process announced {length} bytes, more than {max_bytes}")
        body = await self._stdout.receive_exactly(length)
        self._header = None
        return decode_frame(body)

    async def reap(self) -> None:
        """Kill the process (unless it has ended) and wait for it; safe to call more than once."""
        if self._reaped:
            return
        self._reaped = True
        if self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._process.pid, signal.SIGKILL)
        with anyio.CancelScope(shield=True):
            with anyio.move_on_after(_REAP_TIMEOUT_S):
                await self._process.wait()
                await anyio.to_thread.run_sync(self._stderr.join, _REAP_TIMEOUT_S)  # its last words
            await self._process.aclose()

    def ran_out_of_memory(self) -> bool:
        """Whether its stderr says an allocation failed (the data-size limit, or the machine, refused memory)."""
        return any(marker in line.lower() for line in self.tail for marker in _OOM_MARKERS)

    def death(self) -> str:
        """How the process ended, and its last stderr line, for the log."""
        code = self._process.returncode
        how = "still running" if code is None else f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return how + (f"; last said: {self.tail[-1]}" if self.tail else "")
