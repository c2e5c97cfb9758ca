"""Observability: Prometheus metrics (:mod:`.metrics`, served at ``/metrics`` over HTTP), OpenTelemetry traces
(:mod:`.tracing`, exported when the ``otel`` extra is installed and ``OTEL_*`` variables ask for it), and the hook
the server calls as it answers (:mod:`.telemetry`)."""

from __future__ import annotations

from sandbox_server.observability.metrics import Metrics
from sandbox_server.observability.telemetry import Telemetry
from sandbox_server.observability.tracing import configure_tracing, mark_outcome

__all__ = ["Metrics", "Telemetry", "configure_tracing", "mark_outcome"]
