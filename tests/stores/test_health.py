"""The health endpoint of a replica reports its state store: 503 while the store does not answer (so that a load
balancer sends calls elsewhere), 200 again once it does; with the default store it is always answered."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import httpx2
import pytest

from ..servers import http_server
from .replicas import replica_env
from .services import redis_server

pytestmark = pytest.mark.anyio


async def test_healthz_answers_503_while_the_store_does_not_answer(tmp_path: Path) -> None:
    with redis_server(tmp_path / "redis") as redis:
        async with http_server(env=replica_env(redis.url)) as (base, _), httpx2.AsyncClient(timeout=10) as http:
            with anyio.fail_after(60):
                up = await http.get(base + "/healthz")
                redis.stop()
                down = await http.get(base + "/healthz")
                redis.start()
                back = await http.get(base + "/healthz")
    assert up.status_code == 200 and up.json()["store"] == {"kind": "redis", "ok": True}
    assert down.status_code == 503
    assert down.json()["status"] == "store unavailable" and down.json()["store"] == {"kind": "redis", "ok": False}
    assert back.status_code == 200 and back.json()["status"] == "ok"


async def test_healthz_reports_the_default_store_in_memory() -> None:
    async with http_server() as (base, _), httpx2.AsyncClient(timeout=10) as http:
        health = await http.get(base + "/healthz")
    assert health.status_code == 200 and health.json()["store"] == {"kind": "memory", "ok": True}


async def test_with_a_drain_delay_sigterm_turns_healthz_to_503_while_calls_are_still_answered() -> None:
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}
    headers = {"Accept": "application/json", "MCP-Protocol-Version": "2025-11-25"}
    async with http_server("--http-drain-delay", "30") as (base, process), httpx2.AsyncClient(timeout=10) as http:
        with anyio.fail_after(60):
            assert (await http.get(base + "/healthz")).status_code == 200
            process.send_signal(signal.SIGTERM)
            while (health := await http.get(base + "/healthz")).status_code == 200:  # noqa: ASYNC110 - polling
                await anyio.sleep(0.02)  # polling until the signal has been handled
            answered = await http.post(base + "/mcp", json=call, headers=headers)
            process.send_signal(signal.SIGINT)  # drain now, rather than at the end of the delay
            assert await process.wait() == 130  # drained, and the command says it was interrupted
    assert health.status_code == 503 and health.json()["status"] == "stopping"
    assert answered.status_code == 200 and '"result":"5"' in answered.text
