"""OpenTelemetry spans of tool calls: one per call, in the client's trace (carried in ``_meta`` as ``traceparent``),
with the call's outcome kind, recorded with the OpenTelemetry SDK's in-memory exporter; and the ``OTEL_*`` setup
of the real command exporting over OTLP."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import httpx2
import pytest
import uvicorn
from mcp import Client
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from sandbox_server import build_server
from sandbox_server.observability.tracing import OUTCOME_ATTRIBUTE, configure_tracing
from sandbox_server.server import App
from sandbox_server.transport.http import build_http_app

from ..conftest import make_settings
from ..servers import free_port

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT_SPAN_ID = "b7ad6b7169203331"


@pytest.fixture(scope="module")
def spans() -> Iterator[InMemorySpanExporter]:
    """This process's tracer provider: every finished span lands in memory (the provider can be set only once per
    process; it stops recording when the module's tests end)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    assert trace.get_tracer_provider() is provider, "another tracer provider was set in this process first"
    yield exporter
    provider.shutdown()


@contextmanager
def server_thread() -> Iterator[str]:
    """The HTTP server on a thread and an event loop of its own, so that no context of the test's (its current
    span) can reach the server's handlers except through the requests; yields its base URL."""
    app = App.create(make_settings(workers=1, transport="http"))
    http_app = build_http_app(build_server(app=app), app, app.settings)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(http_app.asgi, host="127.0.0.1", port=port, lifespan="on", log_level="warning")
    )
    thread = threading.Thread(target=asyncio.run, args=(server.serve(),), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
        assert not thread.is_alive()


@asynccontextmanager
async def running() -> AsyncIterator[str]:
    with server_thread() as base:
        with anyio.fail_after(30):
            async with httpx2.AsyncClient() as http:
                while True:
                    try:
                        if (await http.get(base + "/healthz")).status_code == 200:
                            break
                    except httpx2.TransportError:
                        await anyio.sleep(0.05)  # polling until the port accepts connections
        yield base


def server_spans(exporter: InMemorySpanExporter, name: str) -> list[ReadableSpan]:
    return [span for span in exporter.get_finished_spans() if span.kind is SpanKind.SERVER and span.name == name]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_each_tool_call_is_a_span_in_the_clients_trace_with_its_outcome(
    mode: str, spans: InMemorySpanExporter
) -> None:
    spans.clear()
    tracer = trace.get_tracer("tests")
    async with running() as base:
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                with tracer.start_as_current_span("agent turn") as turn:
                    await client.call_tool("add", {"a": 1, "b": 2})
                    await client.call_tool("add", {"a": 3, "b": 4})
                    await client.call_tool("divide", {"a": 1, "b": 0})
                    await client.call_tool("execute_js", {"code": "while (true) {}", "timeout_ms": 100})
                untraced = await client.call_tool("add", {"a": 5, "b": 6})
    assert untraced.is_error is False
    trace_id = turn.get_span_context().trace_id
    sent = {
        span.context.span_id: span
        for span in spans.get_finished_spans()
        if span.kind is SpanKind.CLIENT and span.context.trace_id == trace_id
    }
    adds = server_spans(spans, "tools/call add")
    assert len(adds) == 3
    in_turn = [span for span in adds if span.context.trace_id == trace_id]
    assert len(in_turn) == 2
    for span in in_turn:
        # Its parent is the client's span of sending that request: the context came in the request's _meta.
        assert span.parent is not None and span.parent.span_id in sent
        assert sent[span.parent.span_id].name == "MCP send tools/call add"
        assert span.attributes is not None and span.attributes[OUTCOME_ATTRIBUTE] == "ok"
    assert len({span.context.span_id for span in in_turn}) == 2
    (divide,) = server_spans(spans, "tools/call divide")
    (timed_out,) = server_spans(spans, "tools/call execute_js")
    assert divide.attributes is not None and divide.attributes[OUTCOME_ATTRIBUTE] == "error"
    assert timed_out.attributes is not None and timed_out.attributes[OUTCOME_ATTRIBUTE] == "timeout"
    assert {divide.context.trace_id, timed_out.context.trace_id} == {trace_id}
    (outside,) = [span for span in adds if span.context.trace_id != trace_id]
    assert outside.attributes is not None and outside.attributes[OUTCOME_ATTRIBUTE] == "ok"


async def test_the_trace_id_is_the_one_in_the_requests_traceparent(spans: InMemorySpanExporter) -> None:
    spans.clear()
    call: dict[str, Any] = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "add",
            "arguments": {"a": 1, "b": 2},
            "_meta": {"traceparent": f"00-{TRACE_ID}-{PARENT_SPAN_ID}-01"},
        },
    }
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
    async with running() as base, httpx2.AsyncClient() as http:
        answered = await http.post(base + "/mcp", json=call, headers=headers)
    assert answered.status_code == 200 and "Result: 3" in answered.text
    (span,) = server_spans(spans, "tools/call add")
    assert format(span.context.trace_id, "032x") == TRACE_ID
    assert span.parent is not None and format(span.parent.span_id, "016x") == PARENT_SPAN_ID
    assert span.attributes is not None and span.attributes["gen_ai.tool.name"] == "add"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        pytest.param({}, None, id="nothing-asked"),
        pytest.param(
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, None, id="disabled"
        ),
        pytest.param({"OTEL_TRACES_EXPORTER": "none"}, None, id="exporter-none"),
        pytest.param({"OTEL_TRACES_EXPORTER": "zipkin"}, None, id="unknown-exporter"),
        pytest.param(
            {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
            None,
            id="grpc-not-installed",
        ),
    ],
)
def test_tracing_stays_off_unless_the_environment_asks_for_an_exporter_it_can_make(
    environ: dict[str, str], expected: str | None, caplog: pytest.LogCaptureFixture
) -> None:
    before = trace.get_tracer_provider()
    assert configure_tracing(environ) == expected
    assert trace.get_tracer_provider() is before
    if "zipkin" in str(environ) or "grpc" in str(environ):
        assert "no spans are exported" in caplog.text


class _Collector:
    """A stand-in OpenTelemetry collector on loopback: keeps every OTLP/HTTP trace export it is sent."""

    def __init__(self) -> None:
        import http.server

        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        self.requests: list[ExportTraceServiceRequest] = []
        self.arrived = threading.Event()
        received, arrived = self.requests, self.arrived

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/v1/traces":
                    received.append(ExportTraceServiceRequest.FromString(body))
                    arrived.set()
                self.send_response(200 if self.path == "/v1/traces" else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> _Collector:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def spans(self) -> list[tuple[dict[str, Any], Any]]:
        """Every span received, with its resource's attributes."""
        found = []
        for request in list(self.requests):
            for resource_spans in request.resource_spans:
                resource = {item.key: item.value.string_value for item in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    found += [(resource, span) for span in scope_spans.spans]
        return found


async def test_the_command_exports_its_spans_over_otlp_as_the_otel_variables_say() -> None:
    from ..servers import http_server, server_env

    with _Collector() as collector:
        env = server_env(OTEL_EXPORTER_OTLP_ENDPOINT=collector.url, OTEL_BSP_SCHEDULE_DELAY="50")
        call = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {
                "name": "add",
                "arguments": {"a": 1, "b": 2},
                "_meta": {"traceparent": f"00-{TRACE_ID}-{PARENT_SPAN_ID}-01"},
            },
        }
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}
        async with http_server(env=env) as (base, _), httpx2.AsyncClient() as http:
            assert (await http.post(base + "/mcp", json=call, headers=headers)).status_code == 200
            # The exporter sends its batch within 50 ms of the span's end.
            assert await anyio.to_thread.run_sync(collector.arrived.wait, 30), "no spans reached the collector"
    ((resource, span),) = [(resource, span) for resource, span in collector.spans() if span.name == "tools/call add"]
    assert resource["service.name"] == "sandbox-server"
    assert span.trace_id.hex() == TRACE_ID and span.parent_span_id.hex() == PARENT_SPAN_ID
    attributes = {item.key: item.value.string_value for item in span.attributes}
    assert attributes[OUTCOME_ATTRIBUTE] == "ok"
