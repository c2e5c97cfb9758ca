"""What the server tells about its work as it goes: the hook :class:`~sandbox_server.server.App` calls."""

from __future__ import annotations

from sandbox_server.journal.observed import ObservedStore
from sandbox_server.journal.store import StateStore
from sandbox_server.observability.metrics import Metrics
from sandbox_server.observability.tracing import mark_outcome

__all__ = ["Telemetry"]


class Telemetry:
    """One server's metrics (a registry of its own) and the marks it puts on the SDK's trace spans."""

    def __init__(self, version: str = "unknown") -> None:
        self.metrics = Metrics(version)

    def tool_call(self, tool: str, outcome: str, seconds: float, *, resumed: bool = False) -> None:
        """One tool call answered: counted, timed, and its outcome put on its span."""
        self.metrics.tool_call(tool, outcome, seconds, resumed=resumed)
        mark_outcome(outcome)

    def session_rebuilt(self, seconds: float) -> None:
        """One session rebuilt from its journal."""
        self.metrics.session_rebuilt(seconds)

    def observed_store(self, store: StateStore) -> ObservedStore:
        """``store``, with every exception its calls raise counted."""
        return ObservedStore(store, self.metrics.store_error)
