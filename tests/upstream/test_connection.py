"""Live connections to real upstream servers (``tests/upstream/servers``), over stdio and Streamable HTTP."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import psutil
import pytest

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import Upstream, UpstreamCallError
from sandbox_server.upstream.group import Upstreams
from sandbox_server.upstream.transports import streamable_http
from tests.upstream.everything import everything_command

pytestmark = pytest.mark.anyio

REPO = Path(__file__).resolve().parents[2]
RECORDS_TOOLS = 19
"""The records server's tools: more than three pages of five, so a client that reads one page sees too few."""
SECRET_ENV = "env-secret-7f3a9c"
SECRET_HEADER = "header-secret-1b2d4e"
SECRET_ARG = "arg-secret-5c6e8a"


def module_args(module: str, *args: str) -> tuple[str, ...]:
    return ("-m", f"tests.upstream.servers.{module}", *args)


def stdio_config(name: str, module: str, *args: str, **fields: Any) -> ServerConfig:
    return ServerConfig(
        name=name, transport="stdio", command=sys.executable, args=module_args(module, *args), cwd=str(REPO), **fields
    )


@contextmanager
def http_server(module: str, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start a test server over Streamable HTTP on a free port; yield its URL and process."""
    port_file = tmp_path / f"{module}-{uuid.uuid4().hex}.port"
    command = [sys.executable, *module_args(module, "--http", "0", "--port-file", str(port_file))]
    process = subprocess.Popen(command, cwd=REPO)
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists():
            assert process.poll() is None, "the HTTP test server exited at start"
            assert time.monotonic() < deadline, "the HTTP test server did not start"
            time.sleep(0.02)
        # The socket listens before the port is written, so connections wait in its backlog from now on.
        yield f"http://127.0.0.1:{int(port_file.read_text())}/mcp", process
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(params=["stdio", "http"])
def records(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerConfig]:
    """The records server's config, over each transport."""
    if request.param == "stdio":
        yield stdio_config("records", "records")
        return
    with http_server("records", tmp_path) as (url, _):
        yield ServerConfig(name="records", transport="http", url=url)


@asynccontextmanager
async def connected(*configs: ServerConfig, **options: Any) -> AsyncIterator[Upstreams]:
    with anyio.fail_after(60):
        async with Upstreams(configs, **options) as upstreams:
            yield upstreams


async def call(upstream: Upstream, tool: str, arguments: dict[str, Any] | None = None, **limits: Any) -> Any:
    limits = {"timeout_s": 10.0, "max_result_bytes": 10_000_000} | limits
    result, _size = await upstream.call(tool, arguments or {}, **limits)
    return result


async def structured(upstream: Upstream, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    result = await call(upstream, tool, arguments)
    assert not result.is_error and result.structured_content is not None
    return dict(result.structured_content)


async def failure(upstream: Upstream, tool: str, arguments: dict[str, Any] | None = None, **limits: Any) -> Any:
    with pytest.raises(UpstreamCallError) as caught:
        await call(upstream, tool, arguments, **limits)
    return caught.value


async def until(condition: Any, what: str, seconds: float = 10) -> None:
    """Poll ``condition()`` (sync or async) until true, for at most ``seconds``."""
    with anyio.fail_after(seconds):
        while True:
            value = condition()
            if hasattr(value, "__await__"):
                value = await value
            if value:
                return
            await anyio.sleep(0.02)
    raise AssertionError(what)  # pragma: no cover - fail_after raises first


async def test_it_connects_and_lists_every_page_of_tools(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        upstream = upstreams["records"]
        assert upstream.state == "ready" and upstream.reason is None
        names = [tool.name for tool in upstream.tools]
        assert len(names) == RECORDS_TOOLS == len(set(names))
        assert names[0] == "list_records" and names[-1] == "request_header"
        assert upstream.server_info is not None and upstream.server_info.name == "records"
        list_records = upstream.tools[0]
        assert list_records.annotations is not None and list_records.annotations.read_only_hint is True
        assert list_records.output_schema is not None


async def test_the_server_is_told_who_the_client_is(records: ServerConfig) -> None:
    from sandbox_server.server import package_version

    async with connected(records) as upstreams:
        info = (await structured(upstreams["records"], "client_info"))["client_info"]
    assert (info["name"], info["version"]) == ("sandbox-server", package_version())


async def test_a_call_returns_the_structured_content(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        upstream = upstreams["records"]
        listed = await structured(upstream, "list_records", {"limit": 3, "status": "open"})
        assert listed["total"] == 3 and [r["status"] for r in listed["records"]] == ["open"] * 3
        assert (await structured(upstream, "get_record", {"id": 7}))["record"]["name"] == "record-007"
        assert (await structured(upstream, "echo", {"value": {"a": [1, 2]}})) == {"arguments": {"value": {"a": [1, 2]}}}


async def test_text_json_text_and_image_results_come_back_as_they_are(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        upstream = upstreams["records"]
        text = await call(upstream, "search_text", {"q": "record-01"})
        json_text = await call(upstream, "json_text")
        image = await call(upstream, "image")
    assert text.structured_content is None and text.content[0].text.splitlines()[0] == "record-010"
    assert json_text.content[0].text == '{"ok": true, "items": [1, 2, 3]}'
    assert isinstance(image.content[0], types.ImageContent) and image.content[0].mime_type == "image/png"


async def test_an_is_error_result_is_returned_not_raised(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        result = await call(upstreams["records"], "fail", {"message": "the record is locked"})
        missing = await call(upstreams["records"], "get_record", {"id": 999})
    assert result.is_error is True and result.content[0].text == "the record is locked"
    assert missing.is_error is True


async def test_a_json_rpc_error_is_a_protocol_failure_with_the_servers_code_and_text(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        error = await failure(upstreams["records"], "protocol_error")
        unknown = await failure(upstreams["records"], "no_such_tool")
        assert upstreams["records"].state == "ready"
    assert (error.reason, error.code, error.message) == (
        "protocol", types.INVALID_PARAMS, "protocol_error always answers with this error",
    )  # fmt: skip
    assert (unknown.reason, unknown.message) == ("protocol", "Unknown tool: no_such_tool")


async def test_structured_content_that_breaks_its_output_schema_is_a_protocol_failure(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        error = await failure(upstreams["records"], "bad_output")
    assert error.reason == "protocol" and "bad_output" in error.message and "'many'" in error.message


async def test_a_result_over_the_size_limit_is_too_large(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        error = await failure(upstreams["records"], "huge", {"bytes": 100_000}, max_result_bytes=50_000)
        fits = await call(upstreams["records"], "huge", {"bytes": 40_000}, max_result_bytes=50_000)
        # Over the SDK's default limit for one server-sent event (1 MiB), which must not be ours.
        big = await call(upstreams["records"], "huge", {"bytes": 3_000_000}, max_result_bytes=4_000_000)
    assert error.reason == "too_large" and "50000" in error.message
    assert len(fits.content[0].text) == 40_000 and len(big.content[0].text) == 3_000_000


async def test_an_http_reply_over_the_event_size_limit_is_too_large_and_the_session_lives_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streamable_http, "MAX_MESSAGE_BYTES", 500_000)
    with http_server("records", tmp_path) as (url, _):
        async with connected(ServerConfig(name="records", transport="http", url=url)) as upstreams:
            error = await failure(upstreams["records"], "huge", {"bytes": 600_000}, max_result_bytes=10_000_000)
            assert error.reason == "too_large" and "500000" in error.message
            assert upstreams["records"].state == "ready"
            assert (await structured(upstreams["records"], "pid"))["pid"] > 0


async def test_a_call_past_its_timeout_fails_and_the_server_hears_the_cancellation(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        upstream = upstreams["records"]
        error = await failure(upstream, "slow", {"ms": 60_000}, timeout_s=0.3)
        assert error.reason == "timeout" and "records.slow" in error.message
        await until(lambda: _cancelled(upstream, 1), "the server never saw notifications/cancelled")
        assert upstream.state == "ready"


async def test_cancelling_the_caller_sends_notifications_cancelled_upstream_and_returns(records: ServerConfig) -> None:
    async with connected(records) as upstreams:
        upstream = upstreams["records"]
        with anyio.fail_after(10), anyio.CancelScope() as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(call, upstream, "slow", {"ms": 60_000})
                await until(lambda: _started(upstream, 1), "the slow call never started")
                scope.cancel()
        assert scope.cancelled_caught
        await until(lambda: _cancelled(upstream, 1), "the server never saw notifications/cancelled")
        assert (await call(upstream, "echo")).is_error is not True


async def _cancelled(upstream: Upstream, count: int) -> bool:
    return (await structured(upstream, "cancelled_count"))["cancelled"] >= count


async def _started(upstream: Upstream, count: int) -> bool:
    return (await structured(upstream, "cancelled_count"))["started"] >= count


async def test_list_changed_relists_every_page_and_calls_back(records: ServerConfig) -> None:
    changed: list[str] = []
    async with connected(records, on_tools_changed=changed.append) as upstreams:
        upstream = upstreams["records"]
        await call(upstream, "add_tool")
        await until(lambda: len(upstream.tools) == RECORDS_TOOLS + 1, "the tool list was not read again")
        assert upstream.tools[-1].name == "extra_1" and changed == ["records"]
        assert (await call(upstream, "extra_1")).content[0].text == "extra_1 ran"


async def test_a_restart_that_brings_a_different_tool_list_calls_back() -> None:
    changed: list[str] = []
    async with connected(stdio_config("records", "records"), on_tools_changed=changed.append) as upstreams:
        upstream = upstreams["records"]
        await call(upstream, "add_tool")
        await until(lambda: len(upstream.tools) == RECORDS_TOOLS + 1, "the tool list was not read again")
        await failure(upstream, "crash")
        await call(upstream, "echo")
        assert len(upstream.tools) == RECORDS_TOOLS and changed == ["records", "records"]


async def test_a_raising_tools_changed_callback_does_not_break_the_connection(records: ServerConfig) -> None:
    def broken(name: str) -> None:
        raise RuntimeError("callback bug")

    async with connected(records, on_tools_changed=broken) as upstreams:
        upstream = upstreams["records"]
        await call(upstream, "add_tool")
        await until(lambda: len(upstream.tools) == RECORDS_TOOLS + 1, "the tool list was not read again")
        assert upstream.state == "ready" and (await call(upstream, "echo")).is_error is not True


async def test_a_stdio_server_that_dies_mid_call_fails_it_promptly_and_the_next_call_restarts_it() -> None:
    async with connected(stdio_config("records", "records")) as upstreams:
        upstream = upstreams["records"]
        first = (await structured(upstream, "pid"))["pid"]
        with anyio.fail_after(5):
            error = await failure(upstream, "crash", timeout_s=60)
        assert error.reason == "crashed" and "records.crash" in error.message
        assert upstream.state == "unavailable" and upstream.reason == "the server process exited"
        second = (await structured(upstream, "pid"))["pid"]
        assert second != first and not psutil.pid_exists(first)
        assert upstream.state == "ready"


async def test_a_server_crashing_again_and_again_is_restarted_with_back_off() -> None:
    async with connected(stdio_config("records", "records")) as upstreams:
        upstream = upstreams["records"]
        assert (await failure(upstream, "crash")).reason == "crashed"
        assert (await failure(upstream, "crash")).reason == "crashed", "the first restart is at once"
        error = await failure(upstream, "echo")
        assert error.reason == "unavailable" and "next attempt in 1.0 s" in error.message
        await until(lambda: _answers(upstream), "the server was not restarted after the back-off", seconds=5)


async def _answers(upstream: Upstream) -> bool:
    try:
        await call(upstream, "echo")
    except UpstreamCallError as error:
        assert error.reason == "unavailable"
        return False
    return True


async def test_failed_restarts_back_off_and_calls_meanwhile_fail_at_once(tmp_path: Path) -> None:
    counts = tmp_path / "starts"
    config = stdio_config("broken", "broken", "--mode", "exit", "--count-file", str(counts))

    def starts() -> int:
        return len(counts.read_text().splitlines()) if counts.exists() else 0

    async with connected(config, connect_timeout_s=5) as upstreams:
        upstream = upstreams["broken"]
        assert upstream.state == "unavailable" and "exited during the MCP handshake" in (upstream.reason or "")
        assert starts() == 1
        retried = await failure(upstream, "echo")
        assert starts() == 2, "the first call after a failure tries again at once"
        assert retried.reason == "unavailable" and "next attempt in 1.0 s" in retried.message
        during = await failure(upstream, "echo")
        assert during.reason == "unavailable" and "next attempt in" in during.message and starts() == 2
        await until(lambda: starts() == 3 or _poke(upstream), "no attempt after the back-off", seconds=5)
        await until(lambda: starts() == 3, "no attempt after the back-off", seconds=5)
        waiting = await failure(upstream, "echo")
        assert starts() == 3 and "next attempt in" in waiting.message
        assert 1.0 < float(waiting.message.rsplit("next attempt in ", 1)[1].split()[0]) <= 2.0, "the delay doubled"


async def _poke(upstream: Upstream) -> bool:
    await failure(upstream, "echo")
    return False


async def test_broken_servers_end_unavailable_within_the_connect_timeout_and_the_others_work(tmp_path: Path) -> None:
    configs = [
        stdio_config("exits", "broken", "--mode", "exit"),
        stdio_config("hangs", "broken", "--mode", "hang"),
        stdio_config("garbage", "broken", "--mode", "garbage"),
        ServerConfig(name="missing", transport="stdio", command=str(tmp_path / "no-such-program")),
        ServerConfig(name="closed-port", transport="http", url=f"http://127.0.0.1:{_closed_port()}/mcp"),
        stdio_config("records", "records"),
    ]
    upstreams = Upstreams(configs, connect_timeout_s=2)
    try:
        with anyio.fail_after(2 + 3):
            await upstreams.start()
        states = {upstream.name: (upstream.state, upstream.reason or "") for upstream in upstreams}
        assert states["records"] == ("ready", "")
        assert (await structured(upstreams["records"], "get_record", {"id": 1}))["record"]["id"] == 1
    finally:
        await upstreams.aclose()
    assert {name: state for name, (state, _) in states.items() if name != "records"} == dict.fromkeys(
        ["exits", "hangs", "garbage", "missing", "closed-port"], "unavailable"
    )
    assert "exited during the MCP handshake" in states["exits"][1]
    advice = "; a first start that downloads the server (npx, uvx) may need more: upstream_connect_timeout_s"
    assert states["hangs"][1] == "no answer to the MCP handshake within 2 s" + advice
    assert states["garbage"][1] == "no answer to the MCP handshake within 2 s (its output was not JSON-RPC)" + advice
    assert "cannot start" in states["missing"][1] and "No such file" in states["missing"][1]
    assert "cannot connect to http://127.0.0.1:" in states["closed-port"][1]


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_an_http_server_that_goes_away_mid_call_fails_it_as_crashed(tmp_path: Path) -> None:
    with http_server("records", tmp_path) as (url, process):
        async with connected(ServerConfig(name="records", transport="http", url=url)) as upstreams:
            upstream = upstreams["records"]
            async with anyio.create_task_group() as group:

                async def kill_when_started() -> None:
                    await until(lambda: _started(upstream, 1), "the slow call never started")
                    process.kill()

                group.start_soon(kill_when_started)
                with anyio.fail_after(10):
                    error = await failure(upstream, "slow", {"ms": 60_000}, timeout_s=60)
            assert error.reason == "crashed"
            after = await failure(upstream, "echo")
            assert after.reason == "unavailable" and "cannot connect" in after.message


async def test_aclose_stops_the_stdio_servers_and_later_calls_fail() -> None:
    upstreams = Upstreams([stdio_config("a", "records"), stdio_config("b", "writes")])
    await upstreams.start()
    pid = (await structured(upstreams["a"], "pid"))["pid"]
    assert psutil.pid_exists(pid)
    with anyio.fail_after(10):
        await upstreams.aclose()
        await upstreams.aclose()
    assert not psutil.pid_exists(pid)
    error = await failure(upstreams["a"], "pid")
    assert error.reason == "unavailable" and "closed" in error.message
    assert [upstream.state for upstream in upstreams] == ["unavailable", "unavailable"]


async def test_a_call_during_aclose_fails_as_unavailable() -> None:
    upstreams = Upstreams([stdio_config("records", "records")])
    await upstreams.start()
    outcome: list[UpstreamCallError] = []

    async def slow() -> None:
        outcome.append(await failure(upstreams["records"], "slow", {"ms": 60_000}, timeout_s=60))

    async with anyio.create_task_group() as group:
        group.start_soon(slow)
        await until(lambda: _started(upstreams["records"], 1), "the slow call never started")
        with anyio.fail_after(10):
            await upstreams.aclose()
    assert [error.reason for error in outcome] == ["unavailable"]


async def test_the_child_gets_the_configured_environment_and_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_TEST_NOT_PASSED", "1")
    async with connected(stdio_config("records", "records", env={"API_TOKEN": SECRET_ENV})) as upstreams:
        upstream = upstreams["records"]
        assert (await structured(upstream, "getenv", {"name": "API_TOKEN"}))["value"] == SECRET_ENV
        names = set((await structured(upstream, "environment"))["names"])
    assert "SANDBOX_TEST_NOT_PASSED" not in names and "API_TOKEN" in names


async def test_headers_reach_an_http_server(tmp_path: Path) -> None:
    with http_server("records", tmp_path) as (url, _):
        config = ServerConfig(name="records", transport="http", url=url, headers={"X-Token": SECRET_HEADER})
        async with connected(config) as upstreams:
            assert (await structured(upstreams["records"], "request_header", {"name": "x-token"})) == {
                "value": SECRET_HEADER
            }


async def test_secrets_never_appear_in_logs_reasons_or_reprs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with http_server("records", tmp_path) as (url, _):
        configs = [
            stdio_config("stdio", "records", env={"API_TOKEN": SECRET_ENV}, secrets=frozenset()),
            ServerConfig(name="http", transport="http", url=url, headers={"Authorization": f"Bearer {SECRET_HEADER}"}),
            stdio_config("broken", "broken", "--mode", "exit", env={"API_TOKEN": SECRET_ENV}),
            ServerConfig(
                name="refused",
                transport="http",
                url=f"http://127.0.0.1:{_closed_port()}/mcp",
                headers={"Authorization": SECRET_HEADER},
            ),
        ]
        async with connected(*configs, connect_timeout_s=5) as upstreams:
            for name in ("stdio", "http"):
                await call(upstreams[name], "echo", {"value": SECRET_ARG})
                await failure(upstreams[name], "crash" if name == "stdio" else "protocol_error")
            shown = [repr(upstreams), *map(repr, upstreams), *(u.reason or "" for u in upstreams), *map(repr, configs)]
    everything = "\n".join([*shown, *(record.getMessage() for record in caplog.records), caplog.text])
    assert SECRET_ENV not in everything and SECRET_HEADER not in everything
    ours = [record.getMessage() for record in caplog.records if record.name.startswith("sandbox_server")]
    assert ours and not any(SECRET_ARG in message for message in ours)


async def test_the_group_is_a_collection_of_upstreams_by_name() -> None:
    upstreams = Upstreams([stdio_config("b", "records"), stdio_config("a", "writes")])
    assert upstreams.names() == ["b", "a"] and len(upstreams) == 2 and "a" in upstreams and "c" not in upstreams
    assert [u.name for u in upstreams] == ["b", "a"] and upstreams["a"].config.name == "a"
    with pytest.raises(KeyError):
        upstreams["c"]
    with pytest.raises(ValueError, match="'a'"):
        Upstreams([stdio_config("a", "records"), stdio_config("a", "writes")])
    await upstreams.aclose()


def test_the_group_can_be_built_outside_an_event_loop() -> None:
    assert [u.state for u in Upstreams([stdio_config("a", "writes")])] == ["starting"]


async def test_start_and_aclose_may_run_in_different_tasks_inside_cancel_scopes() -> None:
    upstreams = Upstreams([stdio_config("writes", "writes")])
    with anyio.fail_after(30):
        await upstreams.start()
    assert upstreams["writes"].state == "ready"
    async with anyio.create_task_group() as group:
        group.start_soon(upstreams.aclose)
    assert upstreams["writes"].state == "unavailable"


async def test_start_twice_is_an_error() -> None:
    async with connected(stdio_config("a", "writes")) as upstreams:
        with pytest.raises(RuntimeError):
            await upstreams.start()


async def test_the_writes_server_keeps_state_that_shows_a_side_effect_happened() -> None:
    async with connected(stdio_config("writes", "writes")) as upstreams:
        upstream = upstreams["writes"]
        annotations = {tool.name: tool.annotations for tool in upstream.tools}
        assert annotations["touch"] is None
        assert annotations["delete_record"] is not None and annotations["delete_record"].destructive_hint is True
        assert (await structured(upstream, "deleted")) == {"ids": []}
        await call(upstream, "delete_record", {"id": 4})
        await call(upstream, "set_flag", {"name": "f", "value": True})
        assert (await structured(upstream, "deleted")) == {"ids": [4]}
        assert (await structured(upstream, "state"))["flags"] == {"f": True}


def test_the_test_servers_run_by_path_too() -> None:
    script = REPO / "tests" / "upstream" / "servers" / "broken.py"
    completed = subprocess.run(
        [sys.executable, str(script), "--mode", "exit"], capture_output=True, timeout=30, check=False, cwd="/"
    )
    assert completed.returncode == 1 and b"exiting at start" in completed.stderr


async def test_the_reference_everything_server_answers_echo_and_get_sum() -> None:
    command, reason = everything_command()
    if command is None:
        pytest.skip(reason)
    config = ServerConfig(name="everything", transport="stdio", command=command[0], args=tuple(command[1:]))
    async with connected(config, connect_timeout_s=30) as upstreams:
        upstream = upstreams["everything"]
        assert upstream.state == "ready", upstream.reason
        assert {"echo", "get-sum"} <= {tool.name for tool in upstream.tools}
        echoed = await call(upstream, "echo", {"message": "hello"})
        added = await call(upstream, "get-sum", {"a": 2, "b": 3})
    assert echoed.content[0].text == "Echo: hello"
    assert "5" in added.content[0].text
