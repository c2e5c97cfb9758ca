"""Sessions: state kept between calls, like a notebook's kernel, named by a handle the server gives out.

A session is the sequence of its cells, kept in the state store (:mod:`.cells`): each call that names a session runs
one cell on one of its states and, if it ran to an answer, adds the state after it, which the answer's handle names.
A call that did not (it ran out of time or memory, its worker died, it paused for consent) is not applied: the
session stays as it was. An isolate that holds a state is a cache: one in a worker process of its own per live
session (a one-worker :class:`WorkerPool` whose worker keeps its isolate), so that what ends one session can never
touch another; when a call names a state no live isolate holds (its isolate was evicted, replaced, or lives on
another replica), the session is rebuilt by running its cells again with what they saw (:mod:`.rebuild`).

Where the server knows the caller (stdio, where the process has one client; an MCP session over HTTP), a session may
also be named: the name follows the newest state that caller's calls made, and another caller's same name is
another session. Over stateless HTTP a name only starts a session; the handle continues it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import anyio

from sandbox_server.journal import JournalError, MemoryStore, StateKeys, StateStore, StoreFull, StoreUnavailable
from sandbox_server.sandbox import SandboxLimits, WorkerPool
from sandbox_server.sandbox.outcome import Outcome
from sandbox_server.sessions.cells import (
    STATE_ID_BYTES,
    CellRecord,
    Point,
    SessionLost,
    StateNotKept,
    StateRecord,
    new_id,
    outcome_digest,
    read_handle,
    write_handle,
)
from sandbox_server.sessions.model import NOT_APPLIED, SessionLimits, SessionRefused, SessionRun, is_handle
from sandbox_server.sessions.rebuild import Cell, Replayer, rebuild

__all__ = ["NOT_APPLIED", "SessionLimits", "SessionManager", "SessionRefused", "SessionRun"]

logger = logging.getLogger("sandbox_server.sessions")


@dataclass(slots=True)
class _Live:
    point: Point
    name: str
    created: float
    depth: int
    journal_bytes: int
    pool: WorkerPool
    runs: int = 0
    last_used: float = field(default_factory=time.monotonic)
    heap_bytes: int = 0
    busy: bool = False


class SessionManager:
    """Every session's states (in ``store``), the isolates that hold some of them, their limits and their ends.

    Args:
        limits: The limits of every execution (the sessions' workers run under them too).
        session_limits: How many sessions, for how long.
        store: Where sessions' states are kept.
        keys: What seals the handles.
    """

    def __init__(
        self,
        limits: SandboxLimits,
        session_limits: SessionLimits | None = None,
        store: StateStore | None = None,
        keys: StateKeys | None = None,
    ) -> None:
        self._limits = limits
        self.session_limits = session_limits or SessionLimits()
        self._store: StateStore = store if store is not None else MemoryStore()
        self._keys = keys if keys is not None else StateKeys(None, 600.0)
        self._live: dict[str, _Live] = {}
        self._locks: dict[str, anyio.Lock] = {}
        self._roots: dict[Point, tuple[StateRecord, int]] = {}
        """Sessions started by a call still on its way to its first cell: their root record and its size, so that the
        first cell needs no read of the store (where, with a short idle time, the root may expire meanwhile)."""
        self._names: dict[int, dict[str, Point]] = {}
        self._finalizers: dict[int, weakref.finalize[Any, Any]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        self._closed = False
        self.on_rebuilt: Callable[[float], None] | None = None  # told each rebuild's seconds, for the metrics

    def count(self) -> int:
        """Sessions held live now (an isolate each), over all clients."""
        return len(self._live)

    async def start(self) -> None:
        """Start ending idle and old sessions (call within the server's lifespan)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def run(
        self,
        owner: object | None,
        session: str,
        cell: Cell,
        replay: Replayer,
        *,
        reset: bool = False,
        at: Point | None = None,
    ) -> tuple[Outcome, SessionRun]:
        """Run ``cell`` in the session ``session`` names (a handle, or a name ``owner`` gave one), starting one when
        it names none (or, with ``reset``, a new one in its place); ``at`` resumes a paused cell at that state.

        Raises:
            SessionRefused: A limit refuses a new session.
            SessionLost: The handle names no state this server can have.
        """
        if self._closed:
            raise SessionRefused("the server is shutting down")
        point, name, created, note = await self._target(owner, session, reset, at)
        lock = self._locks.setdefault(point.session, anyio.Lock())
        async with lock:
            if owner is not None and at is None and not is_handle(session):
                # A name follows the newest state: the calls before this one, waited for, may have moved it.
                newest = self._names.get(id(owner), {}).get(name)
                if newest is not None and newest.session == point.session:
                    point = newest
            live, rebuilt = await self._held(point, replay)
            live.busy = True
            try:
                outcome = await live.pool.run(replace(cell.job, keep=True, cell=True))
            finally:
                live.busy = False
                live.last_used = time.monotonic()
            heap = outcome.get("heapBytes")
            if isinstance(heap, int):
                live.heap_bytes = heap
            error = outcome.get("error")
            kind = error.get("kind") if isinstance(error, dict) else None
            runs = outcome.get("isolateRuns")
            if kind in NOT_APPLIED or (isinstance(runs, int) and runs != live.runs + 1):
                why = NOT_APPLIED.get(str(kind), "its worker was replaced")
                note = f"{why}, so it was not applied: the session is as it was before it"
                await self._end_live(live, why)
            else:
                live.runs += 1
                await self._apply(live, cell, outcome)
            if owner is not None and not is_handle(session):
                self._names.setdefault(id(owner), {})[name] = live.point
            result = SessionRun(
                name=name,
                calls=live.depth,
                age_s=max(0.0, time.time() - live.created),
                heap_bytes=live.heap_bytes,
                created=created,
                handle=write_handle(self._keys, live.point),
                point=live.point,
                reset=note,
                rebuilt=rebuilt,
            )
        return outcome, result

    async def _target(
        self, owner: object | None, session: str, reset: bool, at: Point | None
    ) -> tuple[Point, str, bool, str | None]:
        """The state the call runs on, the session's name, whether it was started now, and a note on what was."""
        if at is not None:
            return at, await self._name_of(at), False, None
        names = self._names.get(id(owner), {}) if owner is not None else {}
        if is_handle(session):
            point = read_handle(self._keys, session)
            if reset:
                name = await self._name_of(point)
                await self._drop(point.session, "reset asked")
                return await self._new(owner, name), name, True, None
            live = self._live.get(point.session)
            if live is None or live.point != point:
                states = await self._store.states(point.session)
                if point.state not in states:
                    raise SessionLost(
                        "the session state this handle names is gone: a session ends after going unused for "
                        f"{self.session_limits.idle_s:g} s (session_idle_timeout_s) or past its age limit, and one "
                        "kept in a server's memory ends with it. Start a new session (a name instead of the handle)"
                    )
            return point, await self._name_of(point), False, None
        known = names.get(session)
        note = None
        if known is not None and reset:
            await self._drop(known.session, "reset asked")
        elif known is not None:
            gone = await self._gone(known)
            if gone is None:
                return known, session, False, None
            note = f"the session had ended ({gone}), so this call started a new one"
        return await self._new(owner, session), session, True, note

    async def _gone(self, point: Point) -> str | None:
        """Why ``point``'s session is no more, or None while it lasts."""
        live = self._live.get(point.session)
        if live is not None and live.point == point:
            return None
        if point.state in await self._store.states(point.session):
            return None
        return f"unused for {self.session_limits.idle_s:g} s (session_idle_timeout_s), or older than its age limit"

    async def _new(self, owner: object | None, name: str) -> Point:
        limits = self.session_limits
        if owner is not None:
            names = self._names.setdefault(id(owner), {})
            if name not in names and len(names) >= limits.per_client:
                raise SessionRefused(
                    f"this client has {len(names)} sessions ({', '.join(sorted(names))}), the most one client may "
                    f"have (max_sessions_per_client = {limits.per_client}): reuse one of them, or end one with "
                    "reset: true and a call that needs no state"
                )
            if id(owner) not in self._finalizers:
                self._watch(owner)
        point = Point(new_id(16), new_id(STATE_ID_BYTES))
        root = StateRecord.root(name)
        packed = root.pack(limits.journal_bytes)
        try:
            await self._store.add_state(point.session, point.state, packed, limits.idle_s)
        except StoreFull as exc:
            raise SessionRefused(f"no new session can be kept now: {exc}") from None
        self._roots[point] = (root, len(packed))
        if owner is not None:
            self._names[id(owner)][name] = point
        logger.info("session %s started", _shown(name))
        return point

    async def _name_of(self, point: Point) -> str:
        live = self._live.get(point.session)
        if live is not None:
            return live.name
        states = await self._store.states(point.session)
        for data in states.values():
            with contextlib.suppress(JournalError):
                return StateRecord.unpack(data, self.session_limits.journal_bytes).name
        return "session"

    async def _held(self, point: Point, replay: Replayer) -> tuple[_Live, bool]:
        """The live session holding ``point``'s state, rebuilt from the journal when none holds it."""
        live = self._live.get(point.session)
        if live is not None and live.point == point:
            return live, False
        if live is not None:
            await self._end_live(live, "a call named another of its states")
        await self._make_room()
        pool = WorkerPool(1, self._limits)
        await pool.start()
        started = time.perf_counter()
        fresh = self._roots.pop(point, None)
        try:
            if fresh is not None:  # started by this call: nothing to replay
                records, runs, journal_bytes = [fresh[0]], 0, fresh[1]
            else:
                with anyio.fail_after(self.session_limits.rebuild_s):
                    records, runs, journal_bytes = await rebuild(
                        self._store, point, pool, replay, self.session_limits.journal_bytes
                    )
        except TimeoutError:
            await pool.aclose()
            raise SessionLost(
                f"rebuilding the session from its journal took longer than {self.session_limits.rebuild_s:g} s "
                "(session_rebuild_timeout_s); start a new session, or raise the setting"
            ) from None
        except BaseException:
            with anyio.CancelScope(shield=True):
                await pool.aclose()
            raise
        root, last = records[0], records[-1]
        live = _Live(point, root.name, root.created, last.depth, journal_bytes, pool, runs=runs)
        self._live[point.session] = live
        if last.depth > 0 and self.on_rebuilt is not None:
            self.on_rebuilt(time.perf_counter() - started)
        return live, last.depth > 0

    async def _apply(self, live: _Live, cell: Cell, outcome: Outcome) -> None:
        """Keep the state after ``cell`` (which ran to an answer) as the session's newest."""
        limits = self.session_limits
        cell.journal.take_runtime_record(outcome.get("journal"))
        record = CellRecord(
            cell.tool,
            cell.code,
            cell.input_json,
            cell.timeout_ms,
            cell.files,
            cell.files_digest,
            cell.journal,
            outcome_digest(dict(outcome)),
            tools=dict(cell.job.tools) if cell.job.tools is not None else None,
        )
        if cell.journal.overflow:
            record.unreplayable = "it read the clock or ran timers more than a journal keeps"
        state = StateRecord(live.name, live.created, live.depth + 1, live.point.state, record)
        room = limits.journal_bytes - live.journal_bytes
        try:
            data = state.pack(max(room, 0))
        except JournalError:
            # Kept without the cell: the live isolate holds this state, and nothing can rebuild it.
            why = f"the session's journal would pass max_journal_bytes ({limits.journal_bytes})"
            state.cell = CellRecord(cell.tool, "", None, cell.timeout_ms, unreplayable=why)
            data = state.pack(limits.journal_bytes)
        point = Point(live.point.session, new_id(STATE_ID_BYTES))
        ttl = min(limits.idle_s, max(1.0, limits.max_age_s - (time.time() - live.created)))
        try:
            await self._store.add_state(point.session, point.state, data, ttl)
        except (StoreUnavailable, StoreFull) as exc:
            # The isolate is past every state the store holds: let it go, and the next call rebuilds what was kept.
            await self._end_live(live, "the state after its call could not be kept")
            raise StateNotKept(
                f"{exc}. The code ran, but the state after it could not be kept, so the call was not applied: the "
                "session is as it was before it. Call again with the same handle once the store answers"
            ) from None
        live.point, live.depth, live.journal_bytes = point, live.depth + 1, live.journal_bytes + len(data)

    async def _make_room(self) -> None:
        """Room for one more live session: the least recently used idle one gives up its isolate (its state stays
        in the store, to be rebuilt when it is next used)."""
        if len(self._live) < self.session_limits.per_server:
            return
        idle = [live for live in self._live.values() if not live.busy and not self._locked(live)]
        if not idle:
            raise SessionRefused(
                f"the server holds {len(self._live)} live sessions, all busy now, the most it keeps "
                f"(max_sessions = {self.session_limits.per_server}): call again shortly, or without `session`"
            )
        await self._end_live(min(idle, key=lambda live: live.last_used), "the server needed room for another")

    def _locked(self, live: _Live) -> bool:
        lock = self._locks.get(live.point.session)
        return lock is not None and lock.locked()

    async def _end_live(self, live: _Live, why: str) -> None:
        if self._live.get(live.point.session) is live:
            del self._live[live.point.session]
        logger.info("session %s let go of its isolate: %s", _shown(live.name), why)
        with anyio.CancelScope(shield=True):
            await live.pool.aclose()

    async def _drop(self, session: str, why: str) -> None:
        """End a session: its isolate and its states."""
        live = self._live.get(session)
        if live is not None:
            await self._end_live(live, why)
        await self._store.drop_session(session)
        self._locks.pop(session, None)
        for point in [point for point in self._roots if point.session == session]:
            del self._roots[point]

    def _watch(self, owner: object) -> None:
        """End ``owner``'s named sessions when its connection closes (stdio EOF, the end of an HTTP session):
        through the connection's own teardown, and, should that never run, when the connection object is
        collected."""
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

    async def _close_owner(self, key: int, why: str) -> None:
        names = self._names.pop(key, {})
        finalizer = self._finalizers.pop(key, None)
        if finalizer is not None:
            finalizer.detach()
        for point in names.values():
            await self._drop(point.session, why)

    async def _sweep_forever(self) -> None:
        while True:
            limits = self.session_limits
            await anyio.sleep(max(0.05, min(30.0, limits.idle_s / 4, limits.max_age_s / 4)))
            await self.sweep()

    async def sweep(self, now: float | None = None) -> None:
        """Let go of the isolates of sessions idle or old past their limits (not one that is running a call), and drop
        their states, except an idle session's in a shared store, which another replica may have used since (they
        expire there by themselves)."""
        monotonic = time.monotonic() if now is None else now
        limits = self.session_limits
        for session, lock in list(self._locks.items()):  # the locks of sessions no isolate holds and none waits on
            if session not in self._live and not lock.locked():
                del self._locks[session]
        for point, (root, _) in list(self._roots.items()):  # sessions whose first call never came to run its cell
            waited_on = self._locks.get(point.session)
            if time.time() - root.created >= limits.idle_s and (waited_on is None or not waited_on.locked()):
                del self._roots[point]
        for live in list(self._live.values()):
            if live.busy or self._locked(live):
                continue
            if time.time() - live.created >= limits.max_age_s:
                await self._drop(live.point.session, f"older than {limits.max_age_s:g} s (session_max_age_s)")
            elif monotonic - live.last_used >= limits.idle_s:
                why = f"idle for {limits.idle_s:g} s (session_idle_timeout_s)"
                if self._store.kind == "memory":  # no other process can have used it since
                    await self._drop(live.point.session, why)
                else:  # another replica may have: its states expire in the shared store by themselves
                    await self._end_live(live, why)

    async def aclose(self) -> None:
        """End every live session (the server is stopping); their states stay in a store that outlives it."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for task in list(self._closing):
            with contextlib.suppress(BaseException):
                await task
        async with anyio.create_task_group() as group:  # at once: each waits for its worker process to exit
            for live in list(self._live.values()):
                group.start_soon(self._end_live, live, "the server stopped")


def _shown(name: str) -> str:
    """A session name as a log line shows it (names are checked, but a line must never be forged)."""
    return repr(name[:64])
