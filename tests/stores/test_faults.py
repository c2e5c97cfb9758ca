"""The fault test: three replicas with Redis behind HAProxy (``deploy/haproxy.cfg``: round-robin, no affinity,
health checks on /healthz) and 16 concurrent clients making about 600 mixed calls (plain ``execute_js``, session
steps by handle, ``add``), while one replica is killed with SIGKILL and started again, and later another is stopped
with SIGTERM and started again.

What must hold: no wrong answer; no session step lost or doubled (each client counts the steps it saw applied and
retries a failed one from its last good handle; every answer and every session afterwards, read on each replica, is
that count); every failed request was in flight on, or routed to, the killed replica while it was down (HAProxy's
log names the replica that served each request, by the id the client sent); failures are at most 5% of calls; the
replica stopped with SIGTERM answers its calls in flight (no failure is its) and exits with status 0.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client

from ..servers import MODERN_META
from .load import LoadClient, Outcome
from .replicas import Replica, replica_env, replicas
from .services import Logged, balancer, redis_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

CLIENTS = 16
CALLS_PER_CLIENT = 38
"""16 x 38 = 608 calls."""
KILL_AFTER, TERM_AFTER = 150, 380
"""How many calls are done when the replica is killed, and when the other is stopped."""


async def until(check: Callable[[], bool | Awaitable[bool]], seconds: float, what: str) -> None:
    with anyio.fail_after(seconds, reason=f"waited {seconds:g} s for {what}"):
        while True:
            value = check()
            if value if isinstance(value, bool) else await value:
                return
            await anyio.sleep(0.05)  # polling: HAProxy's log and the load's progress announce nothing


async def in_progress(replica: Replica) -> int:
    async with httpx2.AsyncClient(timeout=5) as http:
        return int((await http.get(replica.url + "/healthz")).json()["http"]["requestsInProgress"])


@pytest.mark.timeout(400)
async def test_killing_and_restarting_replicas_behind_haproxy_loses_and_doubles_nothing(tmp_path: Path) -> None:
    with redis_server(tmp_path / "redis") as redis:
        # A stopping replica tells HAProxy's health checks first (down after 3 checks a second apart), then drains.
        env = replica_env(redis.url, SANDBOX_MAX_SESSIONS="20", SANDBOX_HTTP_DRAIN_DELAY_S="5")
        async with (
            replicas(3, tmp_path, env) as (first, victim, drained),
            balancer(tmp_path, [first.address, victim.address, drained.address]) as lb,
        ):
            clients = [LoadClient(index, lb.url + "/mcp", CALLS_PER_CLIENT) for index in range(CLIENTS)]
            done = [0]
            window: dict[str, float] = {}
            drain: dict[str, float] = {}
            long_call: dict[str, Any] = {}
            started = time.monotonic()
            with anyio.fail_after(360):
                async with anyio.create_task_group() as group:
                    for client in clients:
                        group.start_soon(client.run, done)

                    await until(lambda: done[0] >= KILL_AFTER, 240, f"{KILL_AFTER} calls")
                    window["killed"] = time.time()
                    await victim.kill()
                    await until(lambda: lb.seen(f"/{victim.name} is DOWN") >= 1, 30, "HAProxy to see it down")
                    await victim.start()
                    await until(lambda: lb.seen(f"/{victim.name} is UP") >= 1, 30, "HAProxy to see it up")
                    window["up"] = time.time()

                    await until(lambda: done[0] >= TERM_AFTER, 240, f"{TERM_AFTER} calls")
                    # The load's calls take milliseconds, so one is in flight at SIGTERM only by luck: a call of
                    # several seconds, straight to the replica, is in flight when it is told to stop, for sure.
                    group.start_soon(_long_call, drained, long_call)
                    await until(lambda: _busy(drained), 30, "calls in progress on the replica to stop")
                    drain["calls"] = await in_progress(drained)
                    drain["sent"] = time.monotonic()
                    drain["status"] = await drained.stop(timeout_s=70)
                    drain["took_s"] = time.monotonic() - drain["sent"]
                    await drained.start()
            elapsed = time.monotonic() - started
            final: dict[int, list[int]] = {}
            room = {replica.name: anyio.Semaphore(6) for replica in (first, victim, drained)}  # its request limit
            with anyio.fail_after(120):
                async with anyio.create_task_group() as group:
                    for client in clients:
                        group.start_soon(_read_on_each, client, (first, victim, drained), final, room)
            requests = lb.requests_by_id()

    outcomes = [outcome for client in clients for outcome in client.outcomes]
    calls = [outcome for outcome in outcomes if outcome.kind != "connect"]
    failed = [outcome for outcome in outcomes if not outcome.ok]
    report = {
        "calls": len(calls),
        "failed": len(failed),
        "reconnects": sum(1 for outcome in outcomes if outcome.kind == "connect") - CLIENTS,
        "sessionSteps": sum(client.steps for client in clients),
        "seconds": round(elapsed, 1),
        "drain": drain,
        "downS": round(window["up"] - window["killed"], 2),
    }
    sys.stderr.write(f"fault test: {json.dumps(report)}\n")  # the numbers docs/scale-out.md reports
    (tmp_path / "outcomes.json").write_text(json.dumps([vars(outcome) for outcome in outcomes], indent=1))
    assert [wrong for client in clients for wrong in client.wrong] == []
    assert len(calls) == CLIENTS * CALLS_PER_CLIENT
    assert final == {client.index: [client.steps] * 3 for client in clients}
    assert all(client.steps >= CALLS_PER_CLIENT // 3 - 1 for client in clients)
    unexplained = [
        (outcome, requests.get(outcome.id)) for outcome in failed if not _on_victim(outcome, requests, victim, window)
    ]
    assert unexplained == []
    assert len([outcome for outcome in failed if outcome.kind != "connect"]) <= 0.05 * len(calls)
    assert drain["calls"] >= 1 and drain["status"] == 0
    assert long_call == {"isError": False, "result": "drained"}, long_call


LONG_CALL = "const end = Date.now() + 7000; while (Date.now() < end) {} 'drained'"
"""Busy for 7 s: past the 5 s drain delay, so the replica drains with it still running."""


async def _long_call(replica: Replica, outcome: dict[str, Any]) -> None:
    """One request straight to ``replica``, on one connection: an SDK client would open others beside it (which a
    draining replica no longer accepts), where behind HAProxy they would go to another replica."""
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"_meta": MODERN_META, "name": "execute_js", "arguments": {"code": LONG_CALL, "timeout_ms": 20_000}},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "execute_js",
    }
    async with httpx2.AsyncClient(timeout=60) as http:
        response = await http.post(replica.url + "/mcp", json=request, headers=headers)
    assert response.status_code == 200, response.text
    if response.headers.get("content-type", "").startswith("application/json"):
        message = response.json()
    else:  # an event stream: its last message is the answer
        data = [line.removeprefix("data:").strip() for line in response.text.splitlines() if line.startswith("data:")]
        message = json.loads(data[-1])
    outcome["isError"] = message["result"]["isError"]
    outcome["result"] = message["result"]["structuredContent"]["result"]


async def _busy(replica: Replica) -> bool:
    return await in_progress(replica) >= 1


def _on_victim(outcome: Outcome, requests: dict[str, list[Logged]], victim: Replica, window: dict[str, float]) -> bool:
    """Whether HAProxy sent the failed request to the killed replica, and the request overlapped its time down."""
    served = requests.get(outcome.id, [])
    overlapped = outcome.started <= window["up"] and outcome.ended >= window["killed"]
    return overlapped and any(logged.server == victim.name for logged in served)


async def _read_on_each(
    client: LoadClient, replicas: tuple[Replica, ...], final: dict[int, list[int]], room: dict[str, anyio.Semaphore]
) -> None:
    """The client's session, read from its last handle on each replica (each rebuilds it from Redis, or holds it)."""
    seen: list[int] = []
    final[client.index] = seen
    assert client.handle is not None
    for replica in replicas:
        async with room[replica.name], Client(replica.url + "/mcp") as direct:
            result = await direct.call_tool("execute_js", {"code": "steps", "session": client.handle})
        assert result.structured_content is not None, result
        seen.append(result.structured_content.get("result"))
