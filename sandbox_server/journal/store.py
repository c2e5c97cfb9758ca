"""Where journals live between calls: the journals of paused runs, the states of sessions, and the record of resume
states already used.

:class:`StateStore` is the interface every store keeps (in memory here; a shared one lets replicas see each other's
journals). Every entry expires: a paused run after its request state's lifetime, a session after it has gone unused
for its idle time. A session is a set of states, each naming its parent, so that a session call that failed is never
applied: a handle names a state, and a call on it adds a child.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["DEFAULT_MEMORY_STORE_BYTES", "MemoryStore", "StateStore", "StoreFull", "StoreUnavailable"]

DEFAULT_MEMORY_STORE_BYTES = 512 * 2**20
"""Most bytes of journals an in-memory store holds."""


class StoreFull(Exception):
    """The store has no room for an entry; the message says how much it holds."""


class StoreUnavailable(Exception):
    """The store did not answer in time, or answered with an error; the message says which store and why. Nothing
    the store was asked to do may be taken as done."""


class StateStore(Protocol):
    """Journals by key, each with an expiry.

    Every method but :meth:`healthy` raises :class:`StoreUnavailable` when the store cannot be reached, and the
    writing ones :class:`StoreFull` when it has no room.
    """

    kind: str
    """What keeps the entries: ``memory``, ``sqlite`` or ``redis``."""

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        """Keep ``value`` under ``key`` for ``ttl_s`` seconds (replacing what was there)."""
        ...

    async def get(self, key: str) -> bytes | None:
        """The value under ``key``, or None when there is none (never kept, expired, deleted)."""
        ...

    async def claim(self, key: str, ttl_s: float) -> bool:
        """Mark ``key`` used for ``ttl_s`` seconds: True for the first claim, False for every later one."""
        ...

    async def delete(self, key: str) -> None:
        """Forget ``key``."""
        ...

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        """Add ``state`` to ``session`` and keep the whole session ``ttl_s`` seconds from now."""
        ...

    async def states(self, session: str) -> dict[str, bytes]:
        """Every state of ``session`` (empty when it has expired or never was)."""
        ...

    async def drop_session(self, session: str) -> None:
        """Forget ``session`` and its states."""
        ...

    async def healthy(self) -> bool:
        """Whether the store answers now."""
        ...

    async def aclose(self) -> None:
        """Release the store's connections."""
        ...


@dataclass(slots=True)
class _Entry:
    value: bytes
    expires: float


@dataclass(slots=True)
class _Session:
    states: dict[str, bytes] = field(default_factory=dict)
    expires: float = 0.0
    size: int = 0


class MemoryStore:
    """A :class:`StateStore` in this process's memory, bounded by ``max_bytes``; what it holds ends with the process.

    Expired entries go when they are next looked at, and with every write.
    """

    kind = "memory"

    def __init__(self, max_bytes: int = DEFAULT_MEMORY_STORE_BYTES) -> None:
        self._max_bytes = max_bytes
        self._entries: dict[str, _Entry] = {}
        self._sessions: dict[str, _Session] = {}
        self._size = 0
        self._next_purge = 0.0

    @property
    def size(self) -> int:
        """Bytes held now."""
        return self._size

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        self._purge()
        old = self._entries.pop(key, None)
        if old is not None:
            self._size -= len(old.value)
        self._room(len(value))
        self._entries[key] = _Entry(value, time.monotonic() + ttl_s)
        self._size += len(value)

    async def get(self, key: str) -> bytes | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.expires <= time.monotonic():
            self._drop_entry(key)
            return None
        return entry.value

    async def claim(self, key: str, ttl_s: float) -> bool:
        if await self.get(key) is not None:
            return False
        await self.put(key, b"1", ttl_s)
        return True

    async def delete(self, key: str) -> None:
        self._drop_entry(key)

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        self._purge()
        held = self._sessions.get(session)
        if held is None:
            held = self._sessions[session] = _Session()
        old = held.states.pop(state, None)
        if old is not None:
            held.size -= len(old)
            self._size -= len(old)
        self._room(len(value))
        held.states[state] = value
        held.size += len(value)
        self._size += len(value)
        held.expires = time.monotonic() + ttl_s

    async def states(self, session: str) -> dict[str, bytes]:
        held = self._sessions.get(session)
        if held is None:
            return {}
        if held.expires <= time.monotonic():
            await self.drop_session(session)
            return {}
        return dict(held.states)

    async def drop_session(self, session: str) -> None:
        held = self._sessions.pop(session, None)
        if held is not None:
            self._size -= held.size

    async def healthy(self) -> bool:
        return True

    async def aclose(self) -> None:
        self._entries.clear()
        self._sessions.clear()
        self._size = 0

    def _drop_entry(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self._size -= len(entry.value)

    def _purge(self, *, now_or_never: bool = False) -> None:
        now = time.monotonic()
        if now < self._next_purge and not now_or_never:  # at most once a second, whatever the rate of writes
            return
        self._next_purge = now + 1.0
        for key in [key for key, entry in self._entries.items() if entry.expires <= now]:
            self._drop_entry(key)
        for session in [name for name, held in self._sessions.items() if held.expires <= now]:
            held = self._sessions.pop(session)
            self._size -= held.size

    def _room(self, size: int) -> None:
        if self._size + size > self._max_bytes:
            self._purge(now_or_never=True)
        if self._size + size > self._max_bytes:
            raise StoreFull(
                f"the in-memory state store holds {self._size} bytes of journals and has room for "
                f"{self._max_bytes}; entries expire when their sessions or paused runs do"
            )
