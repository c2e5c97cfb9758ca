"""OpenTelemetry traces: the MCP SDK makes the spans, this module exports them and marks each call's outcome.

The SDK's low-level server wraps every request in a span (``OpenTelemetryMiddleware``: ``tools/call execute_js``,
with the method, the tool's name and the request id), as a child of the trace context the client sent in the
request's ``_meta`` (``traceparent``, ``tracestate``). It does so through the OpenTelemetry API, which the ``mcp``
package installs and which records nothing until a tracer provider is set. :func:`configure_tracing` sets one
from the standard ``OTEL_*`` environment variables when the ``otel`` extra (the OpenTelemetry SDK and its OTLP
exporter) is installed and the environment names where spans go; :func:`mark_outcome` adds the outcome kind of a
tool call to its span.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

from opentelemetry import trace

from sandbox_server.identity import install_line

if TYPE_CHECKING:
    from opentelemetry.sdk.trace.export import SpanExporter

__all__ = ["OUTCOME_ATTRIBUTE", "configure_tracing", "mark_outcome"]

logger = logging.getLogger(__name__)

OUTCOME_ATTRIBUTE = "sandbox.tool.outcome"
"""The span attribute that holds a tool call's outcome kind (``ok``, an error kind, ``input_required``)."""
SERVICE_NAME = "sandbox-server"
_ASKING = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER")


def mark_outcome(outcome: str) -> None:
    """Put ``outcome`` on the current span (the SDK's span of this ``tools/call``); nothing when none records."""
    span = trace.get_current_span()
    if span.is_recording():
        span.set_attribute(OUTCOME_ATTRIBUTE, outcome)


def configure_tracing(environ: Mapping[str, str] | None = None) -> str | None:
    """Export spans as the ``OTEL_*`` environment asks; returns what was set up, or None when nothing was.

    Tracing is on when ``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or
    ``OTEL_TRACES_EXPORTER`` is set (``otlp``, the default; ``console``, to stderr; ``none``), and off with
    ``OTEL_SDK_DISABLED=true``. The SDK reads the rest itself: the endpoint, headers, timeout and compression
    (``OTEL_EXPORTER_OTLP_*``; the protocol is ``http/protobuf``), the
    sampler (``OTEL_TRACES_SAMPLER``), the resource (``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``; the
    service is ``sandbox-server`` unless they name one) and the batching (``OTEL_BSP_*``).
    """
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true" or not any(env.get(name) for name in _ASKING):
        return None
    exporter_name = env.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() or "otlp"
    if exporter_name == "none":
        return None
    try:
        from opentelemetry.sdk.resources import SERVICE_NAME as SERVICE_KEY
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
    except ImportError:
        logger.warning(
            "OTEL_* variables ask for traces, but the OpenTelemetry SDK is not installed: "
            f"install the otel extra ({install_line('otel')}); no spans are exported"
        )
        return None
    exporter: SpanExporter
    if exporter_name == "console":
        exporter = ConsoleSpanExporter(out=sys.stderr)  # stdout belongs to the MCP protocol
    elif exporter_name == "otlp":
        made = _otlp_exporter(env)
        if made is None:
            return None
        exporter = made
    else:
        logger.warning("OTEL_TRACES_EXPORTER=%s is not otlp, console or none; no spans are exported", exporter_name)
        return None
    resource = Resource.create()
    if str(resource.attributes.get(SERVICE_KEY, "unknown_service")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_KEY: SERVICE_NAME}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    described = f"OpenTelemetry traces exported with {exporter_name} as {resource.attributes.get(SERVICE_KEY)}"
    logger.info(described)
    return described


def _otlp_exporter(env: Mapping[str, str]) -> SpanExporter | None:
    protocol = (
        env.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or env.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "http/protobuf"
    ).strip()
    if protocol != "http/protobuf":
        logger.warning(
            "OTLP protocol %r is not supported: the otel extra exports with http/protobuf (a collector's port 4318); "
            "no spans are exported",
            protocol,
        )
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError:
        logger.warning("the OTLP exporter is not installed (install the otel extra); no spans are exported")
        return None
    return OTLPSpanExporter()
