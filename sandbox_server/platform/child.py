"""Supervised child processes: the one place that starts them, follows their stderr, kills and reaps them, and what
a child does to keep its stdout for frames and to leave without interpreter finalisation.

The JavaScript workers (``sandbox_server.sandbox.worker``) and the chart renderer
(``sandbox_server.charts.render_worker``) are both children of this kind. The parent side is :class:`Child`:

- **spawn**: ``python -P -m MODULE ...`` of this interpreter, in a session of its own (a signal to the server's
  process group does not reach it, and killing it kills nothing else), with ``/`` as its working directory and an
  environment built from an allow-list (:func:`child_env`): nothing else of the server's environment, tokens and
  keys above all, reaches code the child runs;
- **stderr tail**: the child's stderr is read by an asyncio protocol on the event loop as it arrives (no thread, no
  task), each line logged at debug level and the last ones kept to say why it died;
- **reap**: SIGKILL unless it has ended, a bounded wait for its exit status and for its last stderr lines, then its
  pipes closed; shielded, so that a cancelled caller still leaves no process behind.

The child side is :func:`begin_child` (stdout kept for frames, logging to stderr, death with the parent) and
:func:`run_and_exit` (the exit status of ``main``, and ``os._exit`` without finalisation: the engines' finalizers
can block once the event loop is gone).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, NoReturn

import anyio
import anyio.abc

from sandbox_server import platform

__all__ = [
    "FIXED_ENV",
    "INHERITED_ENV",
    "MAX_STDERR_LINE",
    "REAP_TIMEOUT_S",
    "STDERR_DRAIN_S",
    "Child",
    "begin_child",
    "child_command",
    "child_env",
    "run_and_exit",
]

logger = logging.getLogger(__name__)

INHERITED_ENV = ("PATH", "PYTHONHOME", "TMPDIR", platform.PLATFORM_VARIABLE)
"""The variables a child inherits from the server; the rest of the server's environment stays out of its reach."""
FIXED_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
"""Set for every child: the engines take their default locale from these, which must not depend on the host."""
MAX_STDERR_LINE = 4096
"""A longer stderr line is kept in pieces of this many bytes."""
REAP_TIMEOUT_S = 5.0
"""How long a reap waits for a killed child's exit status."""
STDERR_DRAIN_S = 1.0
"""How long a reap waits, once the child has ended, for its last stderr lines."""


def child_env(fixed: Mapping[str, str] | None = None) -> dict[str, str]:
    """A child's whole environment: the allow-listed variables, :data:`FIXED_ENV` and ``fixed``, and the import path
    of this process, so that the child finds this very package."""
    env = {name: os.environ[name] for name in INHERITED_ENV if name in os.environ} | FIXED_ENV | dict(fixed or {})
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    return env


def child_command(module: str, args: Iterable[str] = ()) -> list[str]:
    """The command line that runs ``module`` with ``args`` in a child of this interpreter."""
    # -P: nothing from the current directory shadows the package; the import path comes from the environment.
    return [sys.executable, "-P", "-m", module, *args]


class _StderrTail(asyncio.Protocol):
    """The parent's end of a child's stderr: lines logged and the last ones kept as they arrive; ``closed`` is done
    once the stream has ended."""

    def __init__(self, lines: collections.deque[str], label: Callable[[], str]) -> None:
        self._lines = lines
        self._label = label
        self._pending = b""
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        *lines, self._pending = (self._pending + data).split(b"\n")
        while len(self._pending) > MAX_STDERR_LINE:
            lines.append(self._pending[:MAX_STDERR_LINE])
            self._pending = self._pending[MAX_STDERR_LINE:]
        for line in lines:
            self._note(line)

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self._pending:
            self._note(self._pending)
            self._pending = b""
        if not self.closed.done():
            self.closed.set_result(None)

    def _note(self, raw: bytes) -> None:
        for start in range(0, max(len(raw), 1), MAX_STDERR_LINE):
            line = raw[start : start + MAX_STDERR_LINE].decode("utf-8", "replace").rstrip()
            if line:
                self._lines.append(line)
                logger.debug("%s: %s", self._label(), line)


class Child:
    """One supervised child process: its process, its stderr tail, and how to end it.

    Attributes:
        tail: The last lines of its stderr (as many as it was spawned to keep).
        process: The process, with ``stdin`` and ``stdout`` streams when it was spawned with pipes for them.
    """

    def __init__(
        self,
        process: anyio.abc.Process,
        stderr: tuple[asyncio.ReadTransport, _StderrTail],
        tail: collections.deque[str],
    ) -> None:
        self.process = process
        self.tail = tail
        self._stderr, self._stderr_end = stderr
        self._reaped = False

    @classmethod
    async def spawn(
        cls,
        command: Sequence[str],
        *,
        label: str,
        tail_lines: int,
        stdin: int | IO[Any] | None = subprocess.PIPE,
        stdout: int | IO[Any] | None = subprocess.PIPE,
        env: Mapping[str, str] | None = None,
    ) -> Child:
        """Start ``command`` (see :func:`child_command`) with the environment ``env`` (by default :func:`child_env`).

        Args:
            command: The command line.
            label: What the log calls the child (its pid is added).
            tail_lines: How many of its last stderr lines to keep.
            stdin: A descriptor of the parent's for the child's stdin, or ``subprocess.PIPE`` for a stream.
            stdout: The same for its stdout.
            env: The child's whole environment.

        Raises:
            OSError: The process could not be started.
        """
        loop = asyncio.get_running_loop()
        tail: collections.deque[str] = collections.deque(maxlen=tail_lines)
        process: anyio.abc.Process | None = None
        read_fd, write_fd = os.pipe()
        reader = os.fdopen(read_fd, "rb", 0)
        try:
            stderr = await loop.connect_read_pipe(
                lambda: _StderrTail(tail, lambda: f"{label} {process.pid if process else '?'}"), reader
            )
        except BaseException:
            reader.close()
            os.close(write_fd)
            raise
        try:
            process = await anyio.open_process(
                list(command),
                stdin=stdin,
                stdout=stdout,
                stderr=write_fd,
                env=dict(child_env() if env is None else env),
                cwd="/",
                start_new_session=True,
            )
        except BaseException:
            stderr[0].close()
            raise
        finally:
            os.close(write_fd)  # the child has its own copy by now
        return cls(process, stderr, tail)

    @property
    def pid(self) -> int:
        """The operating-system process id."""
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit status once the process has ended (negative: killed by that signal)."""
        return self.process.returncode

    def kill(self) -> None:
        """Send SIGKILL unless the process has already ended.

        ``os.kill`` rather than the process object's ``kill()``: that one first polls, which can reap a process that
        has just died before asyncio's child watcher sees it, losing its exit status. The pid cannot be reused
        before the watcher reaps it.
        """
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)

    async def reap(self) -> None:
        """Kill the process, wait for it to end and for its last stderr lines, and close its pipes; safe to call more
        than once, and finished even when the caller is cancelled."""
        self.kill()
        with anyio.CancelScope(shield=True):
            if self._reaped:
                return
            self._reaped = True
            with anyio.move_on_after(REAP_TIMEOUT_S):
                await self.process.wait()
            with anyio.move_on_after(STDERR_DRAIN_S):
                await self._stderr_end.closed
            self._stderr.close()  # a grandchild may still hold the pipe: the tail is what arrived in time
            await self._stderr_end.closed
            await self.process.aclose()

    def said_any(self, markers: Iterable[str]) -> bool:
        """Whether a line of the tail contains one of ``markers`` (lower case), ignoring case."""
        wanted = tuple(markers)
        return any(marker in line.lower() for line in self.tail for marker in wanted)

    def how_it_ended(self) -> str:
        """``still running``, ``killed by signal N`` or ``exit status N``."""
        code = self.process.returncode
        if code is None:
            return "still running"
        return f"killed by signal {-code}" if code < 0 else f"exit status {code}"


# --- the child's side --------------------------------------------------------------------------------------------


def begin_child() -> int:
    """Start a child's life: keep fd 1 for the protocol under a new number (returned) and send whatever else writes
    to fd 1 to stderr, log to stderr, and arrange to die with the parent."""
    out_fd = os.dup(1)
    os.dup2(2, 1)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    platform.die_with_parent()
    return out_fd


def run_and_exit(
    main: Callable[[], int], *, what: str, protocol_errors: tuple[type[BaseException], ...] = ()
) -> NoReturn:
    """Run a child's ``main`` and leave with its status, skipping interpreter finalisation.

    Bad arguments (``SystemExit``) leave with their status (2 unless it is a number); one of ``protocol_errors`` is
    logged as a protocol failure and leaves with 2; anything else is logged as the failure of ``what`` and leaves
    with 1.
    """
    try:
        status = main()
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    except protocol_errors:
        logger.exception("protocol failure")
        status = 2
    except BaseException:
        logger.exception("%s failed", what)
        status = 1
    sys.stderr.flush()
    os._exit(status)
