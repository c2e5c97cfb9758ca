"""One render process as the server holds it: its pipes, whether it has announced itself ready, and what its stderr
said (started, followed, killed and reaped as every supervised child is, :mod:`sandbox_server.platform.child`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
from anyio.streams.buffered import BufferedByteReceiveStream

from sandbox_server.charts.limits import RenderLimits
from sandbox_server.platform.child import Child, child_command, child_env
from sandbox_server.sandbox.protocol import HEADER, ProtocolError, decode_frame, encode_frame, frame_length

__all__ = ["WORKER_MODULE", "RenderProcess"]

WORKER_MODULE = "sandbox_server.charts.render_worker"
_STDERR_TAIL_LINES = 20
_FIXED_ENV = {"TZ": "UTC"}
_OOM_MARKERS = ("memory allocation of", "out of memory", "allocation failed", "cannot allocate memory")


class RenderProcess:
    """One render process: its pipes, its stderr tail, and whether it has announced itself ready."""

    def __init__(self, child: Child) -> None:
        stdin, stdout = child.process.stdin, child.process.stdout
        assert stdin is not None and stdout is not None
        self._child = child
        self._stdin = stdin
        self._stdout = BufferedByteReceiveStream(stdout)
        self._header: bytes | None = None
        self.started_at = anyio.current_time()
        self.ready: dict[str, Any] | None = None

    @classmethod
    async def spawn(cls, limits: RenderLimits, warm: bool) -> RenderProcess:
        command = child_command(WORKER_MODULE, [*limits.to_args(), *([] if warm else ["--no-warm"])])
        child = await Child.spawn(
            command, label="render process", tail_lines=_STDERR_TAIL_LINES, env=child_env(_FIXED_ENV)
        )
        return cls(child)

    @property
    def pid(self) -> int:
        return self._child.pid

    @property
    def returncode(self) -> int | None:
        return self._child.returncode

    @property
    def tail(self) -> list[str]:
        """The last lines of its stderr."""
        return list(self._child.tail)

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
        await self._child.reap()

    def ran_out_of_memory(self) -> bool:
        """Whether its stderr says an allocation failed (the data-size limit, or the machine, refused memory)."""
        return self._child.said_any(_OOM_MARKERS)

    def death(self) -> str:
        """How the process ended, and its last stderr line, for the log."""
        tail = self._child.tail
        return self._child.how_it_ended() + (f"; last said: {tail[-1]}" if tail else "")
