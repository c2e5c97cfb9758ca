"""Sessions: opt-in state across calls. A session is an isolate kept between the calls that name it, in a worker
process of its own, owned by the client connection that created it (see :mod:`.manager`)."""

from sandbox_server.sessions.manager import SessionLimits, SessionManager, SessionRefused, SessionRun

__all__ = ["SessionLimits", "SessionManager", "SessionRefused", "SessionRun"]
