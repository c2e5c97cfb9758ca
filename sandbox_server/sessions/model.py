"""What a session call is told and tells: the limits sessions live within, why a call was not applied, and what the
answer says about the session (:class:`SessionRun`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sandbox_server.journal.keys import HANDLE_PREFIX
from sandbox_server.sessions.cells import Point
from sandbox_server.settings import (
    DEFAULT_MAX_JOURNAL_BYTES,
    DEFAULT_MAX_SESSIONS_PER_CLIENT,
    DEFAULT_SESSION_IDLE_TIMEOUT_S,
    DEFAULT_SESSION_MAX_AGE_S,
    DEFAULT_SESSION_REBUILD_TIMEOUT_S,
    default_max_sessions,
)

__all__ = ["NOT_APPLIED", "SessionLimits", "SessionRefused", "SessionRun", "is_handle"]


NOT_APPLIED = {
    "timeout": "the call ran out of time",
    "memory": "the call ran out of memory",
    "crashed": "the engine's process failed",
    "paused": "the call paused for the user's consent",
}
"""Error kinds of a call that leaves its session as it was, and why."""


@dataclass(frozen=True, slots=True)
class SessionLimits:
    """How many sessions, for how long (the settings ``max_sessions_per_client``, ``max_sessions``,
    ``session_idle_timeout_s`` and ``session_max_age_s``), how large a session's journal may grow
    (``max_journal_bytes``) and how long a rebuild may take (``session_rebuild_timeout_s``)."""

    per_client: int = DEFAULT_MAX_SESSIONS_PER_CLIENT
    per_server: int = field(default_factory=default_max_sessions)
    idle_s: float = DEFAULT_SESSION_IDLE_TIMEOUT_S
    max_age_s: float = DEFAULT_SESSION_MAX_AGE_S
    journal_bytes: int = DEFAULT_MAX_JOURNAL_BYTES
    rebuild_s: float = DEFAULT_SESSION_REBUILD_TIMEOUT_S


class SessionRefused(Exception):
    """A session that a limit refuses; the message names the limit, its setting and the sessions that exist."""


@dataclass(frozen=True, slots=True)
class SessionRun:
    """What one call did to its session, for the result: ``structured()`` goes in the structured content."""

    name: str
    calls: int
    age_s: float
    heap_bytes: int
    created: bool
    handle: str
    point: Point
    reset: str | None = None
    """Why the call was not applied, or why the state it named is gone (a new session started), or None."""
    rebuilt: bool = False
    """Whether the session was rebuilt from its journal for this call."""

    def structured(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "name": self.name,
            "handle": self.handle,
            "calls": self.calls,
            "ageS": round(self.age_s, 1),
            "heapBytes": self.heap_bytes,
            "created": self.created,
        }
        if self.rebuilt:
            value["rebuilt"] = True
        if self.reset is not None:
            value["reset"] = self.reset
        return value


def is_handle(session: str) -> bool:
    """Whether a ``session`` argument is a handle rather than a name (names are at most 64 characters)."""
    return session.startswith(HANDLE_PREFIX) and len(session) > 64
