"""The worker's process: its channel to the pool, the serve loop that runs jobs one at a time, and start-up (OS
limits, time zone, V8 flags; stdout kept for the protocol and the exit as every supervised child does them,
:mod:`sandbox_server.platform.child`)."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from typing import Any

from py_mini_racer import MiniRacer, init_mini_racer

from sandbox_server import platform
from sandbox_server.platform import child
from sandbox_server.sandbox.limits import MIB, SandboxLimits
from sandbox_server.sandbox.protocol import (
    HEADER,
    ProtocolError,
    attach_fields,
    decode_frame,
    encode_frame,
    frame_length,
    outcome_message,
    ready_message,
)
from sandbox_server.sandbox.worker.bridge import HostBridge, HostLimits
from sandbox_server.sandbox.worker.engine import keep_an_isolate, v8_flags
from sandbox_server.sandbox.worker.isolate import Isolate
from sandbox_server.sandbox.worker.job import execute
from sandbox_server.sandbox.worker.memory import DataBounds, limit_data_segment
from sandbox_server.sandbox.worker.options import journal_options

__all__ = ["MAX_JOBS_PER_WORKER", "RECYCLE_GROWTH_BYTES", "Channel", "main", "run_and_exit", "serve"]

logger = logging.getLogger(__name__)

RECYCLE_GROWTH_BYTES = 64 * MIB
"""Data size a worker may have gained over its start-up size, measured between jobs, before it retires.

Some memory outlives an isolate (a pending ``Atomics.waitAsync`` with a time-out keeps a task of V8's
platform until its time comes); a worker that has gained this much is replaced, so that every job starts with
about the memory of a fresh worker. Ordinary jobs level off about 34 MiB above the start-up size (allocator
pools and V8's own caches filled by the first large jobs), well below this."""
MAX_JOBS_PER_WORKER = 2000
"""Jobs a worker runs before it retires, whatever its data size says."""
TOOLS_WARM_UP_JOBS = 50
"""For how many jobs after a code-mode job a worker warms a fresh isolate up for code mode too, when no job is
waiting for it (see ``warmUpTools`` in ``js_runtime/tools.js``): a server that has other MCP servers' tools gets such
jobs among others, and a fresh isolate otherwise compiles the runtime's tool, host-call and asynchronous paths while
the job waits (about 2 ms)."""
ANSWER_FIRST_S = 0.002
"""How long a worker waits after sending an outcome before it disposes of its isolate and prepares the next, when
another worker was free for the next job and none waited: preparing takes a core for about 3 ms, and on a machine
with few cores it would otherwise compete with the server writing the answer and the client reading it (about 1 ms).
A worker that was the last one free prepares at once."""
IDLE_BEFORE_COMPILING_S = 0.025
"""How long a worker with a fresh isolate waits for a job before it compiles the runtime's common groups.

Calls that follow each other closely (a burst, or a client looping) keep every worker busy longer than this, and
the groups then compile only when a job needs them; at a model's pace, the worker has done it before the call."""


class Channel:
    """The worker's end of the frames: requests on stdin, answers on a private descriptor."""

    def __init__(self, reader: asyncio.StreamReader, out_fd: int) -> None:
        self._reader = reader
        self._out_fd = out_fd

    @classmethod
    async def open(cls, out_fd: int) -> Channel:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", 0))
        return cls(reader, out_fd)

    async def receive(self) -> dict[str, Any] | None:
        """The next message, or None when the pool closed the pipe."""
        try:
            header = await self._reader.readexactly(HEADER.size)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise ProtocolError("the request stream ended inside a frame header") from exc
            return None
        message = decode_frame(await self._read_body(header))
        if "attached" in message:
            names = message["attached"]
            count = len(names) if isinstance(names, list) else 0
            bodies = [await self._read_body(await self._read_header()) for _ in range(count)]
            message = attach_fields(message, bodies)
        return message

    async def _read_header(self) -> bytes:
        try:
            return await self._reader.readexactly(HEADER.size)
        except asyncio.IncompleteReadError as exc:
            raise ProtocolError("the request stream ended inside a frame header") from exc

    async def _read_body(self, header: bytes) -> bytes:
        try:
            return await self._reader.readexactly(frame_length(header))
        except asyncio.IncompleteReadError as exc:
            raise ProtocolError("the request stream ended inside a frame") from exc

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; blocking is fine, the pool always reads."""
        data = memoryview(encode_frame(message))
        while data:
            written = os.write(self._out_fd, data)
            data = data[written:]


def _read_request(message: dict[str, Any]) -> dict[str, Any]:
    if message["op"] != "run":
        raise ProtocolError(f"unknown request {message['op']!r}")
    expected = {"id": int, "code": str, "input": str, "timeoutMs": int}
    for key, kind in expected.items():
        if not isinstance(message.get(key), kind):
            raise ProtocolError(f"run request field {key!r} is missing or not {kind.__name__}")
    if message["timeoutMs"] < 1:
        raise ProtocolError("run request timeoutMs must be positive")
    if not isinstance(message.get("files", ""), str):
        raise ProtocolError("run request field 'files' is not str")
    if "journal" in message and journal_options(message["journal"]) is None:
        raise ProtocolError("run request field 'journal' is not a journal")
    for field in ("backlog", "spare"):
        count = message.get(field, 0)
        if not isinstance(count, int) or count < 0:
            raise ProtocolError(f"run request field {field!r} is not a count")
    return message


def _versions(isolate: Isolate) -> tuple[str, str]:
    return isolate.racer.v8_version, metadata.version("mini-racer")


def _set_timezone(name: str) -> None:
    """Fix the time zone V8 reports; it reads TZ when it starts."""
    os.environ["TZ"] = name
    time.tzset()


class Incoming:
    """The frames from the pool, read by one task for the worker's life: run requests wait in a queue for the
    serve loop, and host-call answers go to the running job's bridge as they come."""

    def __init__(self, channel: Channel) -> None:
        self._channel = channel
        self._runs: asyncio.Queue[dict[str, Any] | BaseException | None] = asyncio.Queue()
        self.bridge: HostBridge | None = None
        self.running: tuple[int, asyncio.Future[None]] | None = None
        """The running job's id and the future that pauses it when resolved (a ``pause`` request)."""
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while (message := await self._channel.receive()) is not None:
                if message.get("op") == "hostResult":
                    if self.bridge is not None and message.get("id") == self._job_id():
                        self.bridge.answered(message)
                    continue
                if message.get("op") == "pause":
                    running = self.running
                    if running is not None and message.get("id") == running[0] and not running[1].done():
                        running[1].set_result(None)
                    continue
                self._runs.put_nowait(message)
        except BaseException as exc:  # a broken stream ends the worker through the serve loop
            self._runs.put_nowait(exc)
            return
        self._runs.put_nowait(None)

    def _job_id(self) -> int | None:
        return None if self.bridge is None else self.bridge.job_id

    def waiting(self) -> bool:
        """Whether a request (or the end of the requests) has arrived and waits to be taken."""
        return not self._runs.empty()

    async def next_run(self) -> dict[str, Any] | None:
        """The next request, or None when the pool closed the pipe."""
        item = await self._runs.get()
        if isinstance(item, BaseException):
            raise item
        return item


async def serve(limits: SandboxLimits, out_fd: int) -> None:
    channel = await Channel.open(out_fd)
    incoming = Incoming(channel)
    keep_an_isolate()
    isolate = await Isolate.prepare(limits)
    bounds = limit_data_segment(limits)
    ready = ready_message(*_versions(isolate))
    channel.send(ready)
    jobs = 0
    tools_job: int | None = None  # the number of the last code-mode job
    runs = 0  # runs of the current isolate, for a session's worker
    heap_at_start: int | None = None  # a session isolate's heap in use, read after its last job
    try:
        while (
            message := await _next_run(
                incoming,
                isolate,
                compile_when_idle=runs == 0,
                warm_tools=tools_job is not None and jobs - tools_job <= TOOLS_WARM_UP_JOBS,
            )
        ) is not None:
            request = _read_request(message)
            job_id = request["id"]
            warn = functools.partial(channel.send, {"op": "pressure", "id": job_id})
            host = HostLimits.from_request(request.get("host"))
            # A session's job always has a bridge: a bridge without limits refuses each call at once, as the
            # runtime refuses those of a job that may not call the host.
            keeping = request.get("keep") is True
            bridge = HostBridge(isolate, job_id, host, channel.send) if host is not None or keeping else None
            if keeping and heap_at_start is None:
                heap_at_start = isolate.heap().get("used", 0)
            incoming.bridge = bridge
            pause = asyncio.get_running_loop().create_future()
            incoming.running = (job_id, pause)
            try:
                outcome = await execute(isolate, request, limits, bounds, warn, bridge, pause)
            finally:
                incoming.running = None
                incoming.bridge = None
                if bridge is not None:
                    await bridge.close()
            runs += 1
            if "tools" in request:
                tools_job = jobs
            keep = keeping and not isolate.stuck and not _ends_state(outcome)
            if keeping:
                outcome = {**outcome, "isolateRuns": runs, "heapBytes": heap_at_start or 0}
            channel.send(outcome_message(job_id, outcome))
            jobs += 1
            if keep:
                # A session's isolate stays for its next call, whatever the job counts say: retiring would lose it.
                # Reading the heap walks it (0.5-1.3 ms): done here, after the outcome left and before the worker
                # is ready again, it is off the call's path; the next call reports it as the heap it began with.
                heap_at_start = isolate.heap().get("used", 0)
                channel.send(ready)
                continue
            runs = 0
            heap_at_start = None
            if request.get("spare", 0) > 0 and request.get("backlog", 0) == 0:
                # Another worker is free for the next job: the call's answer goes first (the server's reply, the
                # client's reading of it), then this worker disposes of its isolate and prepares the next.
                await asyncio.sleep(ANSWER_FIRST_S)
            if isolate.stuck:
                # Disposing of an isolate that is still running would wait for it: make way for a fresh process.
                stuck = "its isolate stayed busy in native code after its job was stopped"
                channel.send({"op": "retire", "reason": stuck})
                sys.stderr.flush()
                os._exit(0)
            isolate.close()
            # With jobs waiting in the pool, the next one comes as soon as this worker is ready: warming the isolate
            # up would only delay it, compiling what the job compiles anyway.
            isolate = await Isolate.prepare(limits, warm_up=request.get("backlog", 0) == 0)
            reason = _retirement(jobs, bounds)
            if reason is not None:
                channel.send({"op": "retire", "reason": reason})
                return
            channel.send(ready)
    finally:
        isolate.close()


async def _next_run(
    incoming: Incoming, isolate: Isolate, *, compile_when_idle: bool, warm_tools: bool = False
) -> dict[str, Any] | None:
    """The next request; a fresh isolate that waits for it :data:`IDLE_BEFORE_COMPILING_S` compiles its common
    groups ahead meanwhile, one at a time while no request waits; with ``warm_tools`` it first runs the code-mode
    warm-up unless a request is waiting already (it would wait for the warm-up). A ``prime`` (a job is coming) makes
    a fresh isolate run its warm-up again, unless a request is already there."""
    if compile_when_idle and warm_tools and not incoming.waiting():
        await isolate.warm_up_tools()
    compile_at = asyncio.get_running_loop().time() + IDLE_BEFORE_COMPILING_S if compile_when_idle else None
    while True:
        if compile_at is None:
            message = await incoming.next_run()
        else:
            try:
                async with asyncio.timeout_at(compile_at):
                    message = await incoming.next_run()
            except TimeoutError:
                compile_at = None
                await isolate.compile_common_groups(stop=incoming.waiting)
                continue
        if message is None or message.get("op") != "prime":
            return message
        if compile_when_idle and not incoming.waiting():
            # The job is on its way (the server parses and routes its call meanwhile, about a millisecond): running
            # the warm-up again wakes the process, the isolate's thread and their caches, which the job's own run
            # paid for after an idle spell. Only in a fresh isolate, where no model-written code has run.
            await isolate.warm_up()


def _ends_state(outcome: Any) -> bool:
    """Whether the job stopped in a way that leaves its isolate unfit to keep (time, memory, a crash, a pause
    that left its code half run)."""
    error = outcome.get("error") if isinstance(outcome, dict) else None
    return isinstance(error, dict) and error.get("kind") in ("timeout", "memory", "crashed", "paused")


def _retirement(jobs: int, bounds: DataBounds | None) -> str | None:
    """Why this worker should make way for a fresh one now, if it should."""
    if jobs >= MAX_JOBS_PER_WORKER:
        return f"it ran {jobs} jobs"
    if bounds is not None:
        grown = platform.data_size() - bounds.baseline
        if grown > RECYCLE_GROWTH_BYTES:
            return f"its data size grew by {grown // MIB} MiB"
    return None


def _print_versions() -> int:
    # Only the engine knows its V8 version; one throwaway isolate tells it.
    init_mini_racer(flags=["--single-threaded"])
    with MiniRacer() as racer:
        versions = {"v8": racer.v8_version, "miniRacer": metadata.version("mini-racer")}
    sys.stdout.write(json.dumps(versions) + "\n")
    sys.stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the worker until the pool closes its stdin; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--versions"]:
        return _print_versions()
    limits = SandboxLimits.from_args(args)
    out_fd = child.begin_child()
    _set_timezone(limits.timezone)
    init_mini_racer(flags=v8_flags(limits))
    try:
        asyncio.run(serve(limits, out_fd))
    except KeyboardInterrupt:
        return 130
    return 0


def run_and_exit() -> None:
    """Run :func:`main` and leave without interpreter finalisation: mini-racer's finalizers can block once the event
    loop is gone."""
    child.run_and_exit(main, what="the worker", protocol_errors=(ProtocolError,))
