"""``GET /metrics`` over the real command: what real calls over HTTP leave in it, read with Prometheus's own text
parser, on both revisions; who may read it; and each server counting only its own calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from sandbox_server import build_server
from sandbox_server.observability.metrics import CALL_BUCKETS_S
from sandbox_server.server import App

from ..codemode.conftest import User, stdio_server, write_config
from ..conftest import make_settings
from ..servers import http_server, server_env

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

MODES = pytest.mark.parametrize("mode", ["auto", "legacy"])

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    """Every sample of an exposition, by name and labels, as Prometheus's parser reads it."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


def scraped(app: App) -> Samples:
    """The metrics of a server in this process, as ``/metrics`` would serve them."""
    return parse(app.telemetry.metrics.exposition(None)[0].decode())


async def scrape(base: str, token: str | None = None) -> Samples:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient() as http:
        response = await http.get(base + "/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return parse(response.text)


@MODES
async def test_calls_over_http_are_counted_by_tool_and_outcome_and_timed(mode: str) -> None:
    async with http_server() as (base, _):
        before = await scrape(base)
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                await client.call_tool("add", {"a": 1, "b": 2})
                await client.call_tool("add", {"a": "10", "b": "20"})
                assert (await client.call_tool("divide", {"a": 1, "b": 0})).is_error
                ran = await client.call_tool("execute_js", {"code": "6 * 7"})
                assert ran.structured_content is not None and ran.structured_content["result"] == 42
                stopped = await client.call_tool("execute_js", {"code": "while (true) {}", "timeout_ms": 200})
                assert stopped.structured_content is not None
                assert stopped.structured_content["error"]["kind"] == "timeout"
        after = await scrape(base)
    assert value(before, "sandbox_tool_calls_total", tool="add", outcome="ok") is None
    assert value(after, "sandbox_tool_calls_total", tool="add", outcome="ok") == 2
    assert value(after, "sandbox_tool_calls_total", tool="divide", outcome="error") == 1
    assert value(after, "sandbox_tool_calls_total", tool="execute_js", outcome="ok") == 1
    assert value(after, "sandbox_tool_calls_total", tool="execute_js", outcome="timeout") == 1
    assert value(after, "sandbox_tool_call_duration_seconds_count", tool="add") == 2
    assert value(after, "sandbox_tool_call_duration_seconds_count", tool="execute_js") == 2
    # The timed-out call took at least its 200 ms: it is in no bucket below 0.1 s, and in the 0.25 s one or above.
    buckets = {
        bound: value(after, "sandbox_tool_call_duration_seconds_bucket", tool="execute_js", le=str(bound))
        for bound in CALL_BUCKETS_S
    }
    assert buckets[0.1] == 1  # only the 6 * 7 call
    assert buckets[60.0] == 2
    assert value(after, "sandbox_tool_call_duration_seconds_sum", tool="execute_js") >= 0.2  # type: ignore[operator]
    assert value(after, "sandbox_workers_configured") == 1
    states = [value(after, "sandbox_workers", state=state) for state in ("idle", "busy", "starting")]
    assert sum(state or 0 for state in states) == 1
    assert value(after, "sandbox_queue_depth") == 0
    assert value(after, "sandbox_requests_in_progress") == 0
    assert value(after, "sandbox_server_info", version=_version(after)) == 1


def _version(samples: Samples) -> str:
    (labels,) = [dict(labels) for name, labels in samples if name == "sandbox_server_info"]
    return labels["version"]


@MODES
async def test_live_sessions_and_rebuilds_from_the_journal_are_counted(mode: str) -> None:
    async with http_server() as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode) as client:  # type: ignore[arg-type]
                first = await client.call_tool("execute_js", {"code": "var n = 1; n", "session": "counting"})
                assert first.structured_content is not None
                handle = first.structured_content["session"]["handle"]
                second = await client.call_tool("execute_js", {"code": "n += 1", "session": handle})
                assert second.structured_content is not None and second.structured_content["result"] == 2
                live = await scrape(base)
                # The first handle names the state before the second call: no live isolate holds it now, so the
                # session is rebuilt from its journal, and sees n as it was then.
                again = await client.call_tool("execute_js", {"code": "n", "session": handle})
                assert again.structured_content is not None and again.structured_content["result"] == 1
                assert again.structured_content["session"]["rebuilt"] is True
        rebuilt = await scrape(base)
    assert value(live, "sandbox_sessions_live") == 1
    assert value(live, "sandbox_session_rebuilds_total") == 0
    assert value(rebuilt, "sandbox_session_rebuilds_total") == 1
    assert value(rebuilt, "sandbox_session_rebuild_seconds_count") == 1
    assert value(rebuilt, "sandbox_session_rebuild_seconds_sum") > 0  # type: ignore[operator]
    assert value(rebuilt, "sandbox_sessions_live") == 1


@pytest.fixture(scope="module")
def consent_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("metrics-upstream")
    return write_config(folder, {"writes": stdio_server("writes", sideEffects="confirm")})


@MODES
async def test_a_consent_is_a_pause_and_a_resume_where_the_revision_pauses_for_it(
    mode: str, consent_config: Path
) -> None:
    # The current revision pauses the run (input_required) and the client calls again with the answer; the
    # handshake one asks in the middle of the call, which needs HTTP sessions, and never pauses.
    args = ["--upstream", str(consent_config), *(["--http-sessions"] if mode == "legacy" else [])]
    user = User()
    async with http_server(*args) as (base, _):
        with anyio.fail_after(60):
            async with Client(base + "/mcp", mode=mode, elicitation_callback=user) as client:  # type: ignore[arg-type]
                ran = await client.call_tool("execute_js_with_tools", {"code": "await tools.writes.touch(); 1"})
                assert ran.structured_content is not None and ran.structured_content["ok"], ran
        samples = await scrape(base)
    assert len(user.questions) == 1
    paused = 1 if mode == "auto" else None
    assert value(samples, "sandbox_runs_paused_total", tool="execute_js_with_tools") == paused
    assert value(samples, "sandbox_runs_resumed_total", tool="execute_js_with_tools") == paused
    assert value(samples, "sandbox_tool_calls_total", tool="execute_js_with_tools", outcome="input_required") == paused
    assert value(samples, "sandbox_tool_calls_total", tool="execute_js_with_tools", outcome="ok") == 1


async def test_with_a_token_metrics_need_it_or_the_metrics_token_which_opens_nothing_else() -> None:
    token, metrics_token = "server-token-for-tests", "metrics-only-token"
    env = server_env(SANDBOX_AUTH_TOKEN=token, SANDBOX_METRICS_TOKEN=metrics_token)
    async with http_server(env=env) as (base, _):
        async with httpx2.AsyncClient() as http:
            missing = await http.get(base + "/metrics")
            wrong = await http.get(base + "/metrics", headers={"Authorization": "Bearer nope"})
            mcp_with_metrics_token = await http.post(
                base + "/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                headers={"Authorization": f"Bearer {metrics_token}", "Accept": "application/json, text/event-stream"},
            )
        with anyio.fail_after(60):
            async with (
                create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http_client,
                Client(streamable_http_client(base + "/mcp", http_client=http_client)) as client,
            ):
                await client.call_tool("add", {"a": 2, "b": 2})
        by_server_token = await scrape(base, token)
        by_metrics_token = await scrape(base, metrics_token)
    assert missing.status_code == 401 and wrong.status_code == 401
    assert "SANDBOX_METRICS_TOKEN" in missing.text
    assert mcp_with_metrics_token.status_code == 401
    assert value(by_server_token, "sandbox_tool_calls_total", tool="add", outcome="ok") == 1
    assert value(by_metrics_token, "sandbox_tool_calls_total", tool="add", outcome="ok") == 1


async def test_an_unsendable_metrics_token_refuses_to_start_naming_its_variable() -> None:
    import sys

    command = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http"]
    with anyio.fail_after(30):
        result = await anyio.run_process(command, env=server_env(SANDBOX_METRICS_TOKEN="two words"), check=False)
    assert result.returncode == 2
    assert b"SANDBOX_METRICS_TOKEN contains spaces" in result.stderr


@MODES
async def test_store_failures_are_counted_by_operation_and_the_call_says_it_failed(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = App.create(make_settings(workers=1))

    async def unreachable(*args: Any) -> None:
        raise ConnectionError("the state store did not answer")

    monkeypatch.setattr(app.store, "add_state", unreachable)
    with anyio.fail_after(60):
        async with Client(build_server(app=app), mode=mode) as client:  # type: ignore[arg-type]
            failed = await client.call_tool("execute_js", {"code": "1", "session": "s"})
            fine = await client.call_tool("execute_js", {"code": "1"})
    assert failed.is_error and not fine.is_error
    samples = scraped(app)
    assert value(samples, "sandbox_state_store_errors_total", operation="add_state", error="ConnectionError") == 1
    assert value(samples, "sandbox_tool_calls_total", tool="execute_js", outcome="ok") == 1
    assert (
        sum(
            count
            for (name, labels), count in samples.items()
            if name == "sandbox_tool_calls_total" and ("outcome", "ok") not in labels
        )
        == 1
    )


@MODES
async def test_two_servers_in_one_process_count_only_their_own_calls(mode: str) -> None:
    one, other = App.create(make_settings(workers=1)), App.create(make_settings(workers=1))
    with anyio.fail_after(60):
        async with Client(build_server(app=one), mode=mode) as client:  # type: ignore[arg-type]
            for _ in range(3):
                await client.call_tool("add", {"a": 1, "b": 1})
        async with Client(build_server(app=other), mode=mode) as client:  # type: ignore[arg-type]
            await client.call_tool("add", {"a": 1, "b": 1})
    counted = [value(scraped(app), "sandbox_tool_calls_total", tool="add", outcome="ok") for app in (one, other)]
    assert counted == [3, 1]
    assert REGISTRY.get_sample_value("sandbox_tool_calls_total", {"tool": "add", "outcome": "ok"}) is None


def test_the_openmetrics_format_is_served_to_a_scraper_that_asks_for_it() -> None:
    app = App.create(make_settings(workers=1))
    app.telemetry.tool_call("add", "ok", 0.002)
    body, content_type = app.telemetry.metrics.exposition("application/openmetrics-text; version=1.0.0")
    assert content_type.startswith("application/openmetrics-text")
    assert body.decode().rstrip().endswith("# EOF")
    assert 'sandbox_tool_calls_total{outcome="ok",tool="add"} 1.0' in body.decode()
