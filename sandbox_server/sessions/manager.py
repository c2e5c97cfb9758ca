"""Sessions: a named isolate kept between calls, like a notebook's kernel, for one client only.

Each session has a worker process of its own (a one-worker :class:`WorkerPool` whose worker keeps its isolate after
each job instead of disposing of it), so that what ends one session, a runaway killed at its time limit, a heap
past its limit, a crash, can never touch another: a kill ends one process, and one process holds one session. The
price is a process per session (about 70 MiB before the session's own heap), which is why sessions are bounded
per client and per server, and end when idle, when old, and when their client goes.

A session belongs to the client connection that created it: the same name from another connection is another
session (or a refusal), never the first one. Calls in one session run one at a time, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from dataclasses import dataclass, field, replace
from typing import Any

import anyio

from sandbox_server.sandbox import Job, SandboxLimits, WorkerPool
from sandbox_server.sandbox.outcome import Outcome
from sandbox_server.settings import (
    DEFAULT_MAX_SESSIONS_PER_CLIENT,
    DEFAULT_SESSION_IDLE_TIMEOUT_S,
    DEFAULT_SESSION_MAX_AGE_S,
    default_max_sessions,
)

__all__ = ["RESET_KINDS", "SessionLimits", "SessionManager", "SessionRefused", "SessionRun"]

logger = logging.getLogger("sandbox_server.sessions")

RESET_KINDS = frozenset({"timeout", "memory", "crashed"})
"""Error kinds after which a session's isolate is not kept: its state is gone."""


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """How many sessions, for how long (the settings ``max_sessions_per_client``, ``max_sessions``,
    ``session_idle_timeout_s`` and ``session_max_age_s``)."""

    per_client: int = DEFAULT_MAX_SESSIONS_PER_CLIENT
    per_server: int = field(default_factory=default_max_sessions)
    idle_s: float = DEFAULT_SESSION_IDLE_TIMEOUT_S
    max_age_s: float = DEFAULT_SESSION_MAX_AGE_S


class SessionRefused(Exception):
    """A new session that a limit refuses; the message names the limit, its setting and the sessions that exist."""


@dataclass(slots=True)
class _Session:
    name: str
    pool: WorkerPool
    created: float
    last_used: float
    calls: int = 0
    heap_bytes: int = 0
    lock: anyio.Lock = field(default_factory=anyio.Lock)
    closed: bool = False

    def age_s(self) -> float:
        return time.monotonic() - self.created


@dataclass(frozen=True, slots=True)
class SessionRun:
    """What one call did to its session, for the result: ``structured()`` goes in the structured content."""

    name: str
    calls: int
    age_s: float
    heap_bytes: int
    created: bool
    reset: str | None
    """Why the session's state is gone after this call (it was discarded), or None."""

    def structured(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "name": self.name,
            "calls": self.calls,
            "ageS": round(self.age_s, 1),
            "heapBytes": self.heap_bytes,
            "created": self.created,
        }
        if self.reset is not None:
            value["reset"] = self.reset
        return value


class SessionManager:
    """Every client's sessions, their limits and their ends.

    Args:
        limits: The limits of every execution (the sessions' workers run under them too).
        session_limits: How many sessions, and for how long.
    """

    def __init__(self, limits: SandboxLimits, session_limits: SessionLimits | None = None) -> None:
        self._limits = limits
        self.session_limits = session_limits or SessionLimits()
        self._owners: dict[int, dict[str, _Session]] = {}
        self._finalizers: dict[int, weakref.finalize[Any, Any]] = {}
        self._lock = anyio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False

    def count(self) -> int:
        """Sessions open now, over all clients."""
        return sum(len(sessions) for sessions in self._owners.values())

    async def start(self) -> None:
        """Start ending idle and old sessions (call within the server's lifespan)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def run(self, owner: object, name: str, job: Job, *, reset: bool = False) -> tuple[Outcome, SessionRun]:
        """Run ``job`` in ``owner``'s session ``name``, creating it (or, with ``reset``, replacing it) first.

        Raises:
            SessionRefused: The session does not exist and a limit refuses a new one.
        """
        if reset:
            await self._discard(owner, name, "reset asked")
        session, created = await self._session(owner, name)
        async with session.lock:
            if session.closed:  # ended (idle, its client gone) while this call waited for the one before it
                session, created = await self._session(owner, name)
            outcome = await session.pool.run(replace(job, keep=True, cell=True))
            session.last_used = time.monotonic()
            error = outcome.get("error")
            kind = error.get("kind") if isinstance(error, dict) else None
            runs = outcome.get("isolateRuns")
            lost: str | None = None
            if kind in RESET_KINDS:
                lost = {"timeout": "the call ran out of time", "memory": "the call ran out of memory"}.get(
                    str(kind), "the engine's process failed"
                )
            elif isinstance(runs, int) and runs != session.calls + 1:
                lost = "its worker was replaced"  # never silently: the state the code expects is not there
                session.calls = runs - 1
            session.calls += 1
            heap = outcome.get("heapBytes")
            if isinstance(heap, int):
                session.heap_bytes = heap
            result = SessionRun(name, session.calls, session.age_s(), session.heap_bytes, created, lost)
        if lost is not None and kind in RESET_KINDS:
            await self._discard(owner, name, lost)
        return outcome, result

    async def _session(self, owner: object, name: str) -> tuple[_Session, bool]:
        async with self._lock:
            sessions = self._owners.get(id(owner), {})
            if name in sessions and not sessions[name].closed:
                return sessions[name], False
            self._check_room(owner, sessions)
            pool = WorkerPool(1, self._limits)
            now = time.monotonic()
            session = _Session(name, pool, now, now)
            if id(owner) not in self._owners:
                self._owners[id(owner)] = {}
                self._watch(owner)
            self._owners[id(owner)][name] = session
        try:
            await pool.start()
        except BaseException:
            await self._discard(owner, name, "its worker did not start")
            raise
        logger.info("session %r started (%d open)", name, self.count())
        return session, True

    def _check_room(self, owner: object, sessions: dict[str, _Session]) -> None:
        limits = self.session_limits
        if self._closed:
            raise SessionRefused("the server is shutting down")
        if len(sessions) >= limits.per_client:
            raise SessionRefused(
                f"this client has {len(sessions)} sessions ({', '.join(sorted(sessions))}), the most one client may "
                f"have (max_sessions_per_client = {limits.per_client}): reuse one of them, or end one with "
                "reset: true and a call that needs no state"
            )
        if self.count() >= limits.per_server:
            raise SessionRefused(
                f"the server holds {self.count()} sessions, the most it keeps (max_sessions = {limits.per_server})"
                + (f"; this client's are: {', '.join(sorted(sessions))}" if sessions else "")
                + ": call without `session`, or again once sessions have ended (idle ones end after "
                f"{limits.idle_s:g} s)"
            )

    def _watch(self, owner: object) -> None:
        """End ``owner``'s sessions when its connection closes (stdio EOF, the end of an HTTP session): through the
        connection's own teardown, and, should that never run, when the connection object is collected."""
        key = id(owner)
        loop = asyncio.get_running_loop()
        teardown = getattr(owner, "exit_stack", None)
        if isinstance(teardown, contextlib.AsyncExitStack):
            teardown.push_async_callback(self._close_owner, key, "its client disconnected")

        def gone() -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._close_soon, key, "its client disconnected")

        with contextlib.suppress(TypeError):  # an owner that cannot be weakly referenced: idle time ends them
            self._finalizers[key] = weakref.finalize(owner, gone)

    def _close_soon(self, key: int, why: str) -> None:
        task = asyncio.get_running_loop().create_task(self._close_owner(key, why))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def close_owner(self, owner: object) -> None:
        """End every session of ``owner`` (its client is gone)."""
        await self._close_owner(id(owner), "its client ended")

    async def _close_owner(self, key: int, why: str) -> None:
        async with self._lock:
            sessions = self._owners.pop(key, {})
            finalizer = self._finalizers.pop(key, None)
        if finalizer is not None:
            finalizer.detach()
        for session in sessions.values():
            await self._end(session, why)

    async def _discard(self, owner: object, name: str, why: str) -> None:
        async with self._lock:
            session = self._owners.get(id(owner), {}).pop(name, None)
        if session is not None:
            await self._end(session, why)

    async def _end(self, session: _Session, why: str) -> None:
        if session.closed:
            return
        session.closed = True
        logger.info("session %r ended: %s", session.name, why)
        with anyio.CancelScope(shield=True):
            await session.pool.aclose()

    async def _sweep_forever(self) -> None:
        while True:
            limits = self.session_limits
            await anyio.sleep(max(0.05, min(30.0, limits.idle_s / 4, limits.max_age_s / 4)))
            await self.sweep()

    async def sweep(self) -> None:
        """End the sessions idle or old past their limits (not one that is running a call)."""
        now = time.monotonic()
        limits = self.session_limits
        expired: list[tuple[_Session, str]] = []
        async with self._lock:
            for key, sessions in list(self._owners.items()):
                for name, session in list(sessions.items()):
                    if session.lock.locked():
                        continue
                    if now - session.last_used >= limits.idle_s:
                        why = f"idle for {limits.idle_s:g} s (session_idle_timeout_s)"
                    elif now - session.created >= limits.max_age_s:
                        why = f"older than {limits.max_age_s:g} s (session_max_age_s)"
                    else:
                        continue
                    del sessions[name]
                    expired.append((session, why))
                if not sessions:
                    self._owners.pop(key, None)
        for session, why in expired:
            await self._end(session, why)

    async def aclose(self) -> None:
        """End every session (the server is stopping)."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for task in list(self._closing):
            with contextlib.suppress(BaseException):
                await task
        async with self._lock:
            owners = list(self._owners)
        for key in owners:
            await self._close_owner(key, "the server stopped")
