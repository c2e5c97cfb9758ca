"""Real server processes sharing keys and a state store (Redis, or SQLite on one host): a session continued on
another replica is rebuilt there and right, a resumed consent runs its tool exactly once whichever replicas see the
retries, and a replica restarted (killed, even) on SQLite keeps its sessions and paused runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from ..codemode.conftest import User
from .replicas import Replica, replica_env, replicas
from .services import Redis, upstream_writes

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def call(replica: Replica, code: str, mode: str = "auto", **arguments: Any) -> dict[str, Any]:
    async with Client(replica.url + "/mcp", mode=mode, elicitation_callback=User()) as client:
        result = await client.call_tool(arguments.pop("tool", "execute_js"), {"code": code, **arguments})
    return {"ok": not result.is_error, **(result.structured_content or {}), "text": text_of(result)}


def store_for(kind: str, folder: Path, request: pytest.FixtureRequest) -> str:
    if kind == "redis":
        redis: Redis = request.getfixturevalue("redis")
        redis.flush()
        return redis.url
    return f"sqlite://{folder / 'state.db'}"


STORES = pytest.mark.parametrize("kind", ["redis", "sqlite"])


@STORES
async def test_a_session_continued_on_another_replica_is_rebuilt_there_and_right(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    env = replica_env(store_for(kind, tmp_path, request))
    async with replicas(2, tmp_path, env) as (one, two):
        with anyio.fail_after(120):
            for mode in ("auto", "legacy"):
                first = await call(one, "var seen = [Math.random(), Date.now()]; var n = 1; n", mode, session="s")
                handle = first["session"]["handle"]
                moved = await call(two, "n += 1; [n, seen]", mode, session=handle)
                assert moved["ok"], moved["text"]
                assert moved["session"]["rebuilt"] is True
                assert moved["result"][0] == 2
                back = await call(one, "n += 1; [n, seen]", mode, session=moved["session"]["handle"])
                assert back["result"] == [3, moved["result"][1]]  # what was drawn is the same on every replica
                # The first handle still names the state after the first call, wherever it is used.
                branch = await call(two, "n", mode, session=handle)
                assert branch["result"] == 1


@pytest.fixture
def upstream(tmp_path: Path) -> Iterator[Path]:
    """One ``writes`` server for every replica, behind two names: ``ledger`` (allowed) and ``writes`` (confirmed)."""
    with upstream_writes(tmp_path, "ledger") as ledger, upstream_writes(tmp_path, "writes") as writes:
        config = tmp_path / "upstream.json"
        servers = {
            "ledger": {"url": ledger, "sideEffects": "allow"},
            "writes": {"url": writes, "sideEffects": "confirm"},
        }
        config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
        yield config


async def pause(replica: Replica, code: str) -> types.InputRequiredResult:
    async with Client(replica.url + "/mcp", elicitation_callback=User()) as client:
        paused = await client.session.call_tool("execute_js_with_tools", {"code": code}, allow_input_required=True)
    assert isinstance(paused, types.InputRequiredResult), paused
    return paused


async def resume(replica: Replica, code: str, paused: types.InputRequiredResult) -> types.CallToolResult:
    assert paused.input_requests
    answers = {key: types.ElicitResult(action="accept", content={"allow": True}) for key in paused.input_requests}
    async with Client(replica.url + "/mcp", elicitation_callback=User()) as client:
        done = await client.session.call_tool(
            "execute_js_with_tools",
            {"code": code},
            input_responses=answers,
            request_state=paused.request_state,
            allow_input_required=True,
        )
    assert isinstance(done, types.CallToolResult), done
    return done


async def world(replica: Replica) -> dict[str, Any]:
    """What the upstream servers did, as they tell it."""
    deleted = "(await tools.writes.deleted()).ids"
    code = f"({{ deleted: {deleted}, created: (await tools.ledger.state()).created.map(r => r.id) }})"
    seen = await call(replica, code, tool="execute_js_with_tools")
    assert seen["ok"], seen["text"]
    return dict(seen["result"])


# Consent pauses a run only on the current revision (2026-07-28): the handshake revision asks within the call, on a
# connection that stays on one replica, so there is nothing to resume elsewhere.
@STORES
async def test_a_resumed_consent_runs_its_tool_once_whichever_replicas_see_the_retries(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, upstream: Path
) -> None:
    env = replica_env(store_for(kind, tmp_path, request))
    code = "const made = await tools.ledger.create_record({ name: 'a' });\n"
    code += "await tools.writes.delete_record({ id: 7 }); made"
    async with replicas(3, tmp_path, env, "--upstream", str(upstream)) as three:
        with anyio.fail_after(120):
            paused = await pause(three[0], code)
            results: list[types.CallToolResult] = []

            async def retry(replica: Replica) -> None:
                results.append(await resume(replica, code, paused))

            async with anyio.create_task_group() as group:  # the same answer reaches every replica at once
                for replica in three:
                    group.start_soon(retry, replica)
            late = await resume(three[1], code, paused)  # and once more, after
            done = await world(three[2])
    ran = [result for result in results if not result.is_error]
    assert len(ran) == 1, [text_of(result) for result in results]
    assert all("resumed already" in text_of(result) for result in [*results, late] if result.is_error)
    assert late.is_error
    assert done["deleted"] == [7]  # the call the user allowed ran once
    assert len(done["created"]) == 1  # and the call before the pause was not made again


async def test_a_replica_killed_and_restarted_on_sqlite_keeps_its_sessions_and_paused_runs(
    tmp_path: Path, upstream: Path
) -> None:
    env = replica_env(f"sqlite://{tmp_path / 'state.db'}")
    small = "await tools.writes.delete_record({ id: 1 }); 'small'"
    # A journal larger than a request state carries waits in the store (random text does not compress).
    large = """
    const name = Array.from({ length: 4000 }, () => crypto.randomUUID()).join('');
    const made = await tools.ledger.create_record({ name });
    await tools.writes.delete_record({ id: 2 });
    made.record.id
    """
    async with replicas(1, tmp_path, env, "--upstream", str(upstream)) as (only,):
        with anyio.fail_after(180):
            first = await call(only, "var n = 40; n", session="s")
            second = await call(only, "n += 1", session=first["session"]["handle"])
            paused_small, paused_large = await pause(only, small), await pause(only, large)
            assert paused_large.request_state is not None and len(paused_large.request_state) < 4096  # a reference
            await only.kill()
            await only.start()
            kept = await call(only, "n += 1", session=second["session"]["handle"])
            done_small, done_large = await resume(only, small, paused_small), await resume(only, large, paused_large)
            again = await resume(only, small, paused_small)
            done = await world(only)
    assert kept["ok"] and kept["result"] == 42 and kept["session"]["rebuilt"] is True
    assert not done_small.is_error and not done_large.is_error, (text_of(done_small), text_of(done_large))
    assert done_large.structured_content is not None
    assert [done_large.structured_content["result"]] == done["created"]
    assert again.is_error and "resumed already" in text_of(again)  # the record of used states survived too
    assert sorted(done["deleted"]) == [1, 2]
