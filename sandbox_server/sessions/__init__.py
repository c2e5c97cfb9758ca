"""Sessions: opt-in state across calls, kept as the journal of their cells and held live by an isolate in a worker
process of its own (see :mod:`.manager`)."""

from sandbox_server.sessions.cells import CellRecord, Point, SessionLost, StateNotKept
from sandbox_server.sessions.manager import SessionManager
from sandbox_server.sessions.model import SessionLimits, SessionRefused, SessionRun, is_handle
from sandbox_server.sessions.rebuild import Cell, Replayer

__all__ = [
    "Cell",
    "CellRecord",
    "Point",
    "Replayer",
    "SessionLimits",
    "SessionLost",
    "SessionManager",
    "SessionRefused",
    "SessionRun",
    "StateNotKept",
    "is_handle",
]
