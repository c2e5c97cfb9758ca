"""Every state store keeps the same promises (memory, SQLite and a real Redis alike): entries expire, a key is claimed
once, among processes too, a session's states live and end together, and an unreachable store says so."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from sandbox_server.journal import MemoryStore, StateKeys, StateStore, StoreFull, StoreUnavailable, open_store
from sandbox_server.journal.sqlite_store import SqliteStore

from .services import Redis, redis_server

pytestmark = pytest.mark.anyio

KINDS = ["memory", "sqlite", "redis"]
SHARED = StateKeys([b"k" * 40], 60)
"""Keys as every replica would have them (a shared store needs them, and seals its entries with them)."""


def store_url(kind: str, folder: Path, redis: Redis | None) -> str:
    if kind == "sqlite":
        return f"sqlite://{folder / 'state.db'}"
    if kind == "redis":
        assert redis is not None
        return redis.url
    return "memory"


@pytest.fixture(params=KINDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[StateStore]:
    redis: Redis | None = None
    if request.param == "redis":
        redis = request.getfixturevalue("redis")
        redis.flush()
    opened = open_store(store_url(request.param, tmp_path, redis), SHARED)
    assert opened.kind == request.param
    try:
        yield opened
    finally:
        await opened.aclose()


async def gone(check: object) -> None:
    """Wait (bounded) until ``check()`` is true: an expiry, which no event announces."""
    with anyio.fail_after(10):
        while not await check():  # type: ignore[operator]  # noqa: ASYNC110 - the store only says so when asked
            await anyio.sleep(0.05)


async def test_an_entry_is_kept_replaced_and_forgotten(store: StateStore) -> None:
    assert await store.get("k") is None
    await store.put("k", b"\x00first\xff", 60)
    assert await store.get("k") == b"\x00first\xff"
    await store.put("k", b"second", 60)
    assert await store.get("k") == b"second"
    await store.delete("k")
    assert await store.get("k") is None


async def test_an_entry_expires_after_its_time_and_no_other_does(store: StateStore) -> None:
    await store.put("short", b"s", 0.3)
    await store.put("long", b"l", 60)
    assert await store.get("short") == b"s"

    async def short_gone() -> bool:
        return await store.get("short") is None

    await gone(short_gone)
    assert await store.get("long") == b"l"


async def test_a_key_is_claimed_once_until_its_claim_expires(store: StateStore) -> None:
    assert await store.claim("used:a", 0.3) is True
    assert await store.claim("used:a", 0.3) is False
    assert await store.claim("used:b", 60) is True  # another key is another claim

    async def claimable() -> bool:
        return await store.claim("used:a", 60)

    await gone(claimable)
    assert await store.claim("used:a", 60) is False
    assert await store.claim("used:b", 60) is False


async def test_of_many_concurrent_claims_of_one_key_exactly_one_wins(store: StateStore) -> None:
    won: list[bool] = []

    async def claim() -> None:
        won.append(await store.claim("used:race", 60))

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            for _ in range(40):
                group.start_soon(claim)
    assert won.count(True) == 1 and len(won) == 40


CLAIMER = """
import json, pathlib, sys, time, anyio
from sandbox_server.journal import StateKeys, open_store

async def main():
    store = open_store(sys.argv[1], StateKeys([b"k" * 40], 60))
    await store.healthy()  # connected before the race starts
    print("ready", flush=True)
    go = pathlib.Path(sys.argv[3])
    while not go.exists():
        time.sleep(0.005)
    won = [key for key in range(int(sys.argv[2])) if await store.claim(f"used:{key}", 60)]
    await store.aclose()
    print(json.dumps(won), flush=True)

anyio.run(main)
"""


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_claims_made_by_separate_processes_at_once_each_go_to_exactly_one(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    redis: Redis | None = request.getfixturevalue("redis") if kind == "redis" else None
    if redis is not None:
        redis.flush()
    url, keys = store_url(kind, tmp_path, redis), 2000
    # On a loaded machine one process may claim every key before the others are scheduled: no race took place,
    # so the race is run again, each time on new keys (a new database, a flushed Redis), at most three times.
    contended = False
    for attempt in range(3):
        if attempt:
            (tmp_path / f"again-{attempt}").mkdir()
            url = store_url(kind, tmp_path / f"again-{attempt}", redis)
            if redis is not None:
                redis.flush()
        winners = _race_claims(url, keys, tmp_path / f"go-{attempt}")
        claimed = sorted(key for won in winners for key in won)
        assert claimed == list(range(keys))  # every key claimed, none twice
        if sum(1 for won in winners if won) >= 2:  # the processes did claim at the same time
            contended = True
            break
    assert contended


def _race_claims(url: str, keys: int, go: Path) -> list[list[int]]:
    command = [sys.executable, "-c", CLAIMER, url, str(keys), str(go)]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    try:
        for process in processes:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
        go.touch()  # all three claim from now on, at once
        outputs = [process.communicate(timeout=60)[0] for process in processes]
    finally:
        for process in processes:
            process.kill()
            process.wait()
    return [json.loads(output) for output in outputs]


async def test_a_session_keeps_its_states_and_each_added_state_renews_its_time(store: StateStore) -> None:
    await store.add_state("kept", "root", b"r", 0.5)
    await store.add_state("control", "root", b"c", 0.5)
    await store.add_state("kept", "next", b"n", 60)  # renews the whole session, its first state too

    async def control_gone() -> bool:
        return await store.states("control") == {}

    await gone(control_gone)
    assert await store.states("kept") == {"root": b"r", "next": b"n"}


async def test_an_expired_session_starts_again_empty_when_a_state_is_added(store: StateStore) -> None:
    await store.add_state("s", "old", b"o", 0.3)

    async def expired() -> bool:
        return await store.states("s") == {}

    await gone(expired)
    await store.add_state("s", "new", b"n", 60)
    assert await store.states("s") == {"new": b"n"}


async def test_dropping_a_session_forgets_its_states_and_no_other(store: StateStore) -> None:
    await store.add_state("one", "a", b"1", 60)
    await store.add_state("one", "b", b"2", 60)
    await store.add_state("two", "a", b"3", 60)
    await store.drop_session("one")
    assert await store.states("one") == {}
    assert await store.states("two") == {"a": b"3"}
    assert await store.states("never") == {}
    assert await store.healthy() is True


async def test_the_sqlite_file_is_for_its_owner_only_and_outlives_the_process_that_wrote_it(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    first = SqliteStore(path)
    await first.put("run:x", b"journal", 60)
    await first.add_state("s", "a", b"state", 60)
    files = [path, path.with_name("state.db-wal"), path.with_name("state.db-shm")]
    assert [stat.S_IMODE(file.stat().st_mode) for file in files] == [0o600, 0o600, 0o600]
    await first.aclose()
    again = SqliteStore(path)
    assert await again.get("run:x") == b"journal"
    assert await again.states("s") == {"a": b"state"}
    assert await again.claim("used:x", 60) is True
    await again.aclose()


async def test_a_full_sqlite_store_refuses_a_write_saying_it_is_full(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "state.db", max_bytes=256 * 1024)
    await store.put("small", b"s", 60)
    with pytest.raises(StoreFull, match="is full"):
        await store.put("large", b"x" * 1024 * 1024, 60)
    assert await store.get("small") == b"s" and await store.get("large") is None
    await store.aclose()


async def test_a_stopped_redis_makes_every_operation_an_unavailable_error_until_it_is_back(tmp_path: Path) -> None:
    with redis_server(tmp_path / "redis") as redis:
        store = open_store(redis.url, SHARED, timeout_s=2)
        await store.put("k", b"v", 60)
        redis.stop()
        assert await store.healthy() is False
        with anyio.fail_after(30):
            for operation in (
                store.get("k"),
                store.put("k", b"v", 60),
                store.claim("used:k", 60),
                store.add_state("s", "a", b"v", 60),
                store.states("s"),
            ):
                with pytest.raises(StoreUnavailable, match=f"redis://127.0.0.1:{redis.port}/0"):
                    await operation
        redis.start()
        assert await store.healthy() is True
        assert await store.claim("used:k", 60) is True
        await store.aclose()


async def test_a_redis_password_never_appears_in_what_the_store_says() -> None:
    store = open_store("redis://:hunter2-secret@127.0.0.1:1/3", SHARED, timeout_s=2)
    with pytest.raises(StoreUnavailable) as raised:
        await store.get("k")
    assert "hunter2" not in str(raised.value) and "redis://127.0.0.1:1/3" in str(raised.value)
    await store.aclose()


async def test_the_memory_store_is_bounded_and_says_so() -> None:
    store = MemoryStore(max_bytes=1024)
    with pytest.raises(StoreFull, match="has room for 1024"):
        await store.put("k", b"x" * 2048, 60)
