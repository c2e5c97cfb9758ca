"""Prometheus metrics of one server: what its tool calls did and took, and the state of its workers and sessions.

Every :class:`Metrics` has a registry of its own (never the process-wide default), so that several servers in one
process, and tests, each count only their own calls. Counts of events are kept as they happen; the state of the pool,
the sessions and the requests in progress is read when ``/metrics`` is scraped, from the callables given to
:meth:`Metrics.watch`.

Labels carry only names this server chooses: tool names from its registry, outcome kinds, store operations and
exception class names. Never code, arguments, results, session names or handles.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram, Info
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

__all__ = ["CALL_BUCKETS_S", "REBUILD_BUCKETS_S", "Metrics", "Readings"]

CALL_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Upper bounds of the call-duration histogram, in seconds: from an ``add`` (about a millisecond) to the longest
``timeout_ms`` a call may ask for (60 s by default)."""
REBUILD_BUCKETS_S = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
"""Upper bounds of the session-rebuild histogram, in seconds, up to the default ``session_rebuild_timeout_s``."""
WORKER_STATES = ("idle", "busy", "starting")


@dataclass(slots=True)
class Readings:
    """Where the scrape-time values come from; each is read only while ``/metrics`` is answered."""

    pool: Callable[[], Mapping[str, int]] | None = None
    """The worker pool's ``stats()``: ``size``, ``idle``, ``busy``, ``starting``, ``queued``, ``restarts``."""
    live_sessions: Callable[[], int] | None = None
    """How many sessions hold a live isolate on this replica."""
    backlog: Callable[[], Mapping[str, int]] | None = None
    """The admitted requests' ``stats()``: ``requests`` in progress and ``refused`` so far."""


class _Current(Collector):
    """The values read at scrape time."""

    def __init__(self, readings: Readings) -> None:
        self._readings = readings

    def describe(self) -> Iterable[Metric]:
        return []  # nothing is read when the collector is registered, only when scraped

    def collect(self) -> Iterable[Metric]:
        readings = self._readings
        if readings.pool is not None:
            stats = readings.pool()
            workers = GaugeMetricFamily(
                "sandbox_workers", "JavaScript worker processes of the pool, by state", labels=["state"]
            )
            for state in WORKER_STATES:
                workers.add_metric([state], stats.get(state, 0))
            yield workers
            yield GaugeMetricFamily(
                "sandbox_workers_configured", "worker processes the pool keeps (--workers)", value=stats.get("size", 0)
            )
            yield GaugeMetricFamily(
                "sandbox_queue_depth", "calls waiting for a free worker", value=stats.get("queued", 0)
            )
            yield CounterMetricFamily(
                "sandbox_worker_restarts",
                "worker processes started to replace one that ended (crashed, killed at a time limit, recycled)",
                value=stats.get("restarts", 0),
            )
        if readings.live_sessions is not None:
            yield GaugeMetricFamily(
                "sandbox_sessions_live",
                "sessions holding a live isolate on this replica",
                value=readings.live_sessions(),
            )
        if readings.backlog is not None:
            backlog = readings.backlog()
            yield GaugeMetricFamily(
                "sandbox_requests_in_progress",
                "MCP requests admitted and not yet answered (running, or waiting for a worker)",
                value=backlog.get("requests", 0),
            )
            yield CounterMetricFamily(
                "sandbox_requests_refused",
                "requests refused at once for lack of room (--max-request-memory-mb)",
                value=backlog.get("refused", 0),
            )


class Metrics:
    """The metrics of one server, in a registry of its own."""

    def __init__(self, version: str = "unknown") -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._readings = Readings()
        registry = self.registry
        Info("sandbox_server", "the server's version", registry=registry).info({"version": version})
        self.tool_calls = Counter(
            "sandbox_tool_calls",
            "tool calls answered, by tool and outcome kind (ok, an error kind, or input_required)",
            ["tool", "outcome"],
            registry=registry,
        )
        self.call_seconds = Histogram(
            "sandbox_tool_call_duration_seconds",
            "time from a tool call reaching the server to its answer, by tool",
            ["tool"],
            buckets=CALL_BUCKETS_S,
            registry=registry,
        )
        self.paused = Counter(
            "sandbox_runs_paused",
            "runs paused for the user's consent (answered input_required, MCP 2026-07-28)",
            ["tool"],
            registry=registry,
        )
        self.resumed = Counter(
            "sandbox_runs_resumed",
            "calls that came back with a paused run's request state and the user's answers",
            ["tool"],
            registry=registry,
        )
        self.rebuilds = Counter(
            "sandbox_session_rebuilds",
            "sessions rebuilt from their journal because no live isolate on this replica held the state named",
            registry=registry,
        )
        self.rebuild_seconds = Histogram(
            "sandbox_session_rebuild_seconds",
            "time to rebuild a session from its journal (replaying its cells), before the call's own cell runs",
            buckets=REBUILD_BUCKETS_S,
            registry=registry,
        )
        self.store_errors = Counter(
            "sandbox_state_store_errors",
            "state-store calls that raised, by operation and exception class",
            ["operation", "error"],
            registry=registry,
        )
        registry.register(_Current(self._readings))

    def watch(
        self,
        *,
        pool: Callable[[], Mapping[str, int]] | None = None,
        live_sessions: Callable[[], int] | None = None,
        backlog: Callable[[], Mapping[str, int]] | None = None,
    ) -> None:
        """Read these at every scrape (each one given replaces the one before)."""
        if pool is not None:
            self._readings.pool = pool
        if live_sessions is not None:
            self._readings.live_sessions = live_sessions
        if backlog is not None:
            self._readings.backlog = backlog

    def tool_call(self, tool: str, outcome: str, seconds: float, *, resumed: bool = False) -> None:
        """Count one answered call: ``outcome`` is ``ok``, an error kind, or ``input_required`` (paused)."""
        self.tool_calls.labels(tool=tool, outcome=outcome).inc()
        self.call_seconds.labels(tool=tool).observe(seconds)
        if outcome == "input_required":
            self.paused.labels(tool=tool).inc()
        if resumed:
            self.resumed.labels(tool=tool).inc()

    def session_rebuilt(self, seconds: float) -> None:
        """Count one session rebuilt from its journal in ``seconds``."""
        self.rebuilds.inc()
        self.rebuild_seconds.observe(seconds)

    def store_error(self, operation: str, error: BaseException) -> None:
        """Count one exception a state-store call raised."""
        self.store_errors.labels(operation=operation, error=type(error).__name__).inc()

    def exposition(self, accept: str | None) -> tuple[bytes, str]:
        """The registry in the text format the ``Accept`` header asks for (Prometheus text by default, OpenMetrics
        when asked), and its content type."""
        encoder, content_type = choose_encoder(accept or "")
        return encoder(self.registry), content_type
