"""What an HTTP client can hold, over a real ``sandbox-server serve --transport http`` process on 127.0.0.1:
connections with half-sent requests, event streams nobody needs, requests beyond what the server runs, the memory of
waiting requests, and the drain on SIGTERM."""

from __future__ import annotations

import json
import os
import signal
from typing import Any
from urllib.parse import urlsplit

import anyio
import anyio.abc
import httpx2
import pytest

from benchmarks.procfs import children, peak_rss_bytes, rss_bytes

from ..servers import http_server, server_env
from .wire import is_gone

pytestmark = pytest.mark.anyio

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
HALF_A_REQUEST = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def call(request_id: int, code: str, **arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "execute_js", "arguments": {"code": code, **arguments}},
    }


async def read_until_closed(stream: anyio.abc.SocketStream) -> bytes:
    """Everything the server sends on ``stream`` until it closes the connection."""
    received = bytearray()
    try:
        while True:
            received += await stream.receive()
    except (anyio.EndOfStream, anyio.BrokenResourceError):
        return bytes(received)


async def test_half_sent_requests_neither_exhaust_descriptors_nor_delay_the_health_check() -> None:
    cap = 32
    async with http_server("--http-max-connections", str(cap), "--http-header-timeout", "2") as (base, process):
        port = urlsplit(base).port
        assert port is not None
        before = open_descriptors(process.pid)
        streams: list[anyio.abc.SocketStream] = []
        try:
            with anyio.fail_after(60):
                for _ in range(200):
                    stream = await anyio.connect_tcp("127.0.0.1", port)
                    await stream.send(HALF_A_REQUEST)
                    streams.append(stream)
                async with httpx2.AsyncClient() as http:
                    with anyio.fail_after(5):
                        health = await http.get(base + "/healthz")
                assert health.status_code == 200
                # 200 connections were opened; the server kept at most its cap of them.
                assert open_descriptors(process.pid) <= before + cap
                assert health.json()["http"]["connections"]["evicted"] >= 200 - cap
                # Those it kept are closed once their head is overdue, with a 408.
                answers = [await read_until_closed(stream) for stream in streams]
        finally:
            for stream in streams:
                await stream.aclose()
        timed_out = [answer for answer in answers if answer.startswith(b"HTTP/1.1 408 ")]
        assert 1 <= len(timed_out) <= cap
        assert all(answer in (b"", *timed_out) for answer in answers)
        async with httpx2.AsyncClient() as http:
            assert (await http.get(base + "/healthz")).json()["http"]["connections"]["headerTimeouts"] == len(timed_out)


async def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_its_connection_closed() -> None:
    async with http_server("--http-body-timeout", "1") as (base, _):
        port = urlsplit(base).port
        assert port is not None
        with anyio.fail_after(20):
            stream = await anyio.connect_tcp("127.0.0.1", port)
            async with stream:
                await stream.send(
                    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b'Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc"'
                )
                answer = await read_until_closed(stream)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert b"did not arrive within 1 s" in answer


async def test_when_every_connection_serves_a_request_a_new_one_is_refused_with_503_and_retry_after() -> None:
    async with http_server("--http-max-connections", "2") as (base, _):
        port = urlsplit(base).port
        assert port is not None
        code = "await new Promise(resolve => setTimeout(resolve, 1500)); 'slept'"
        async with httpx2.AsyncClient(timeout=60) as first, httpx2.AsyncClient(timeout=60) as second:
            answers: list[httpx2.Response] = []

            async def post(http: httpx2.AsyncClient, request_id: int) -> None:
                answers.append(await http.post(base + "/mcp", json=call(request_id, code), headers=HEADERS))

            with anyio.fail_after(60):
                async with anyio.create_task_group() as group:
                    group.start_soon(post, first, 1)
                    group.start_soon(post, second, 2)
                    while True:
                        stream = await anyio.connect_tcp("127.0.0.1", port)
                        async with stream:
                            await stream.send(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                            answer = await read_until_closed(stream)
                        if answer.startswith(b"HTTP/1.1 503 "):
                            break
                        await anyio.sleep(0.02)  # both calls are not in progress yet: try again
        assert b"retry-after: 1" in answer.lower()
        assert [response.status_code for response in answers] == [200, 200]


async def test_queued_calls_of_many_small_objects_stay_within_the_budget_and_refusals_say_when_to_retry() -> None:
    # Each input is 1 MB of 125,000 objects, which take 23 MiB once parsed: an estimate that counted values alone
    # (13.6 MiB) let twenty of them wait together, 200 MiB past the budget.
    budget = 256 * 2**20
    many_objects = [{"a": 1}] * 125_000
    async with http_server() as (base, process), httpx2.AsyncClient(timeout=120) as http:
        started = peak_rss_bytes(process.pid)
        answers: dict[int, httpx2.Response] = {}

        async def post(request_id: int, body: str) -> None:
            async with httpx2.AsyncClient(timeout=120) as own:  # a connection of its own
                answers[request_id] = await own.post(base + "/mcp", content=body, headers=HEADERS)

        def queued(request_id: int) -> str:
            return json.dumps(call(request_id, "input.length", timeout_ms=30_000, input=many_objects))

        with anyio.fail_after(120):
            async with anyio.create_task_group() as group:
                group.start_soon(post, 1, json.dumps(call(1, "const t = Date.now(); while (Date.now() - t < 3000) {}")))
                while (await http.get(base + "/healthz")).json()["pool"]["busy"] < 1:  # noqa: ASYNC110
                    await anyio.sleep(0.02)  # polling until the one worker is busy
                for request_id in range(10, 30):
                    group.start_soon(post, request_id, queued(request_id))
            peak = peak_rss_bytes(process.pid)
            refused = [request_id for request_id in range(10, 30) if answers[request_id].status_code == 503]
            for request_id in refused:
                answer = answers[request_id]
                wait_s = int(answer.headers["retry-after"])
                assert 1 <= wait_s <= 60 and f"retry after {wait_s} s" in answer.text
            served = [answers[request_id] for request_id in range(10, 30) if request_id not in refused]
            assert served and all('"result":125000' in answer.text for answer in served)
            for request_id in refused:  # the budget is free again: each is served when retried
                await post(request_id, queued(request_id))
                assert '"result":125000' in answers[request_id].text
    print(f"\n{len(refused)} of 20 refused; peak {started / 2**20:.0f} -> {peak / 2**20:.0f} MiB")
    assert peak <= started + budget


async def test_a_get_on_the_mcp_endpoint_is_answered_at_once_instead_of_holding_a_stream_open() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        with anyio.fail_after(10):
            response = await http.get(base + "/mcp", headers={"Accept": "text/event-stream"})
            deleted = await http.delete(base + "/mcp")
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert "no sessions" in response.json()["error"]["message"]
    assert deleted.status_code == 405


async def test_requests_beyond_the_memory_budget_are_refused_at_once_and_small_ones_still_admitted() -> None:
    # Each large call holds about 3.5 MiB by the estimate; a budget of 8 MiB has room for two of them.
    large_input = list(range(50_000))
    async with http_server("--max-request-memory-mb", "8") as (base, _), httpx2.AsyncClient(timeout=60) as http:
        answers: dict[int, httpx2.Response] = {}

        async def post(request_id: int) -> None:
            code = "await new Promise(resolve => setTimeout(resolve, 800)); input.length"
            answers[request_id] = await http.post(
                base + "/mcp", json=call(request_id, code, input=large_input), headers=HEADERS
            )

        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                for request_id in range(2):
                    group.start_soon(post, request_id)
                while (await http.get(base + "/healthz")).json()["http"]["requestsInProgress"] < 2:  # noqa: ASYNC110
                    await anyio.sleep(0.02)  # polling the server until the two calls are in progress
                refused = await http.post(base + "/mcp", json=call(9, "1", input=large_input), headers=HEADERS)
                # Refused, not queued: the answer came while both calls were still waiting or running.
                assert len(answers) == 0
                # A small call fits in what is left: it waits for the worker behind them and is answered.
                small = await http.post(base + "/mcp", json=call(10, "6 * 7"), headers=HEADERS)
                health = (await http.get(base + "/healthz")).json()["http"]
    assert refused.status_code == 503
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["error"]["code"] == -32000
    assert "max_request_memory_mb" in refused.json()["error"]["message"]
    assert small.status_code == 200 and '"result":42' in small.text
    assert health["requestsRefused"] == 1 and health["backlog"]["bytesLimit"] == 8 * 2**20
    for request_id in range(2):
        assert answers[request_id].status_code == 200
        assert '"result":50000' in answers[request_id].text


async def test_twenty_calls_with_large_inputs_are_all_answered_and_hold_bounded_memory() -> None:
    # Twenty concurrent calls with 1 MB inputs once took the server from 70 to 618 MiB while they waited for the
    # worker, and a count of requests in progress then refused twelve of them. Admitted by the memory they hold,
    # all twenty wait and are answered, and the server stays small.
    big_input = list(range(120_000))  # about 1 MB of JSON
    async with http_server() as (base, process), httpx2.AsyncClient(timeout=120) as http:
        peak = rss_bytes(process.pid)
        statuses: list[int] = []

        async def post(request_id: int) -> None:
            code = "await new Promise(resolve => setTimeout(resolve, 300)); input.length"
            response = await http.post(base + "/mcp", json=call(request_id, code, input=big_input), headers=HEADERS)
            statuses.append(response.status_code)
            assert '"result":120000' in response.text

        async def watch_memory() -> None:
            nonlocal peak
            while True:
                peak = max(peak, rss_bytes(process.pid))
                await anyio.sleep(0.02)

        with anyio.fail_after(120):
            async with anyio.create_task_group() as sampling:
                sampling.start_soon(watch_memory)
                async with anyio.create_task_group() as group:
                    for request_id in range(20):
                        group.start_soon(post, request_id)
                sampling.cancel_scope.cancel()
    assert statuses == [200] * 20
    assert peak < 300 * 2**20, f"the server reached {peak >> 20} MiB"


async def test_two_hundred_concurrent_small_calls_on_two_workers_are_all_answered() -> None:
    env = server_env(SANDBOX_WORKERS="2")
    async with http_server(env=env) as (base, _), httpx2.AsyncClient(timeout=120) as http:
        results: dict[int, str] = {}

        async def post(request_id: int) -> None:
            response = await http.post(base + "/mcp", json=call(request_id, f"{request_id} + 1"), headers=HEADERS)
            assert response.status_code == 200, response.text
            results[request_id] = response.text

        with anyio.fail_after(120):
            async with anyio.create_task_group() as group:
                for request_id in range(200):
                    group.start_soon(post, request_id)
    assert len(results) == 200
    assert all(f'"result":{request_id + 1}' in text for request_id, text in results.items())


async def test_a_queued_call_whose_client_disconnects_leaves_the_queue_at_once() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient(timeout=60) as http:
        busy = "await new Promise(resolve => setTimeout(resolve, 3000)); 'done'"

        async def post_busy() -> None:
            await http.post(base + "/mcp", json=call(1, busy), headers=HEADERS)

        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                group.start_soon(post_busy)
                while (await http.get(base + "/healthz")).json()["pool"]["busy"] < 1:  # noqa: ASYNC110
                    await anyio.sleep(0.02)  # polling until the one worker runs the long call
                async with httpx2.AsyncClient(timeout=60) as leaving, anyio.create_task_group() as queued:

                    async def post_queued() -> None:
                        await leaving.post(base + "/mcp", json=call(2, "'queued'"), headers=HEADERS)

                    queued.start_soon(post_queued)
                    while (await http.get(base + "/healthz")).json()["pool"]["queued"] < 1:  # noqa: ASYNC110
                        await anyio.sleep(0.02)  # polling until the second call waits for the worker
                    queued.cancel_scope.cancel()  # the client gives up: its connection closes
                while (await http.get(base + "/healthz")).json()["pool"]["queued"] != 0:  # noqa: ASYNC110
                    await anyio.sleep(0.02)  # polling until the server has seen the disconnect
                health = (await http.get(base + "/healthz")).json()
                assert health["pool"]["busy"] == 1  # the long call still runs: the queued one left before it ended
                group.cancel_scope.cancel()


async def wait_until_closed_to_new_connections(base: str) -> None:
    async with httpx2.AsyncClient() as http:
        while True:
            try:
                await http.get(base + "/healthz", headers={"Connection": "close"})
            except httpx2.TransportError:
                return
            await anyio.sleep(0.02)  # polling until the server stops accepting


async def test_a_second_sigterm_during_the_drain_changes_nothing_and_every_call_is_answered() -> None:
    async with http_server() as (base, process), httpx2.AsyncClient(timeout=60) as http:
        workers = children(process.pid)
        answers: list[httpx2.Response] = []

        async def post(request_id: int) -> None:
            code = "await new Promise(resolve => setTimeout(resolve, 700)); 'slept'"
            answers.append(await http.post(base + "/mcp", json=call(request_id, code), headers=HEADERS))

        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                for request_id in range(2):
                    group.start_soon(post, request_id)
                while (await http.get(base + "/healthz")).json()["http"]["requestsInProgress"] < 2:  # noqa: ASYNC110
                    await anyio.sleep(0.02)  # polling the server until both calls are in progress
                process.send_signal(signal.SIGTERM)
                await wait_until_closed_to_new_connections(base)  # the drain has begun
                process.send_signal(signal.SIGTERM)
            assert await process.wait() == 0
    assert [answer.status_code for answer in answers] == [200, 200]
    assert all('"result":"slept"' in answer.text for answer in answers)
    assert workers
    assert all(is_gone(pid) for pid in workers)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "streams", "version": "0"}},
}


async def open_session(http: httpx2.AsyncClient, base: str) -> dict[str, str]:
    """Initialize a session; the headers its later requests carry."""
    response = await http.post(base + "/mcp", json=INITIALIZE, headers=HEADERS)
    assert response.status_code == 200, response.text
    headers = {**HEADERS, "Mcp-Session-Id": response.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await http.post(base + "/mcp", json=initialized, headers=headers)).status_code == 202
    return headers


async def test_session_streams_cannot_take_the_connections_health_checks_and_new_clients_need() -> None:
    args = ("--http-sessions", "--http-max-connections", "8", "--http-max-streams", "3")
    async with http_server(*args) as (base, _), httpx2.AsyncClient(timeout=30) as http:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as holders:
                for _ in range(10):
                    headers = await open_session(http, base)

                    async def hold(headers: dict[str, str] = headers) -> None:
                        async with (
                            httpx2.AsyncClient(timeout=None) as own,  # a connection of its own
                            own.stream("GET", base + "/mcp", headers=headers) as stream,
                        ):
                            async for _ in stream.aiter_bytes():
                                pass

                    holders.start_soon(hold)
                while (await http.get(base + "/healthz")).json()["http"]["streams"]["ended"] < 7:  # noqa: ASYNC110
                    await anyio.sleep(0.05)  # polling until every stream has been opened
                health = await http.get(base + "/healthz")
                assert health.status_code == 200
                assert health.json()["http"]["streams"]["open"] <= 3
                # A new client still gets in and computes.
                async with httpx2.AsyncClient(timeout=30) as newcomer:
                    headers = await open_session(newcomer, base)
                    answer = await newcomer.post(base + "/mcp", json=call(5, "6 * 7"), headers=headers)
                assert answer.status_code == 200 and '"result":42' in answer.text
                holders.cancel_scope.cancel()


async def test_with_fewer_connections_than_streams_streams_take_at_most_half_of_the_connections() -> None:
    # The stream cap (64 by default) is above the connection cap: unbounded, eight streams took every connection
    # and the health check was refused 503.
    args = ("--http-sessions", "--http-max-connections", "8")
    async with http_server(*args) as (base, _), httpx2.AsyncClient(timeout=30) as http:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as holders:
                for _ in range(10):
                    headers = await open_session(http, base)

                    async def hold(headers: dict[str, str] = headers) -> None:
                        async with (
                            httpx2.AsyncClient(timeout=None) as own,  # a connection of its own
                            own.stream("GET", base + "/mcp", headers=headers) as stream,
                        ):
                            async for _ in stream.aiter_bytes():
                                pass

                    holders.start_soon(hold)
                while (await http.get(base + "/healthz")).json()["http"]["streams"]["ended"] < 6:  # noqa: ASYNC110
                    await anyio.sleep(0.05)  # polling until every stream has been opened
                health = await http.get(base + "/healthz")
                assert health.status_code == 200
                streams = health.json()["http"]["streams"]
                assert streams["max"] == 4 and streams["open"] <= 4
                async with httpx2.AsyncClient(timeout=30) as newcomer:
                    headers = await open_session(newcomer, base)
                    answer = await newcomer.post(base + "/mcp", json=call(5, "6 * 7"), headers=headers)
                assert answer.status_code == 200 and '"result":42' in answer.text
                holders.cancel_scope.cancel()


async def test_with_a_single_connection_no_stream_is_kept_open_and_the_get_says_so() -> None:
    async with (
        http_server("--http-sessions", "--http-max-connections", "1") as (base, _),
        httpx2.AsyncClient(timeout=30) as http,
    ):
        headers = await open_session(http, base)
        refused = await http.get(base + "/mcp", headers=headers)
        assert refused.status_code == 405 and "keeps no GET stream" in refused.text
        answer = await http.post(base + "/mcp", json=call(6, "6 * 7"), headers=headers)
        assert answer.status_code == 200 and '"result":42' in answer.text


async def test_an_open_stream_does_not_keep_an_unused_session_alive_forever() -> None:
    args = ("--http-sessions", "--http-stream-max-s", "1", "--http-session-idle-timeout", "1")
    async with http_server(*args) as (base, _), httpx2.AsyncClient(timeout=30) as http:
        headers = await open_session(http, base)
        with anyio.fail_after(30):
            async with http.stream("GET", base + "/mcp", headers=headers) as stream:
                async for _ in stream.aiter_bytes():
                    pass  # the server ends the stream after a second
            # No request for longer than the idle timeout: any request would count as use of the session.
            await anyio.sleep(2.5)
            answer = await http.post(base + "/mcp", json=call(6, "1"), headers=headers)
        assert answer.status_code == 404
