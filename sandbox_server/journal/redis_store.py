"""A :class:`~sandbox_server.journal.store.StateStore` in Redis, for server processes anywhere (the ``redis`` extra).

Every entry is a Redis key with an expiry Redis keeps (``SET ... PX``); a claim is ``SET ... NX PX``, which of any
number of processes exactly one wins; a session is one hash (its states by id) whose expiry every added state renews
(``HSET`` and ``PEXPIRE`` in one ``MULTI``), so that a session and all its states end together. Keys start with
``sandbox:`` so that the database can be told apart from others' in a shared Redis (one database per deployment is
better still).

Every command is bounded: the client's socket timeouts, and the store's time limit around each operation whatever
the client retries. Redis's errors become :class:`StoreUnavailable` (and ``OOM``, a Redis past its ``maxmemory``,
:class:`StoreFull`) in one place, :func:`_answers`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from redis import exceptions as redis_errors
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from sandbox_server.journal.store import StoreFull, StoreUnavailable

__all__ = ["KEY_PREFIX", "RedisStore"]

KEY_PREFIX = "sandbox:"
"""What every key this store writes starts with."""


class RedisStore:
    """Entries, sessions and claims in the Redis database ``url`` names.

    Args:
        url: ``redis://[[USER]:PASSWORD@]HOST:PORT/DB`` (``rediss://`` for TLS).
        shown: The same without its password, for messages.
        timeout_s: The longest any operation may take.
    """

    kind = "redis"

    def __init__(self, url: str, *, shown: str, timeout_s: float = 5.0) -> None:
        self._shown = shown
        self._timeout_s = timeout_s
        self._redis: Redis = Redis.from_url(
            url,
            socket_timeout=timeout_s,
            socket_connect_timeout=min(timeout_s, 2.0),
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            health_check_interval=30,
        )

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        async with self._answers("put"):
            await self._redis.set(_entry(key), value, px=_ms(ttl_s))

    async def get(self, key: str) -> bytes | None:
        async with self._answers("get"):
            value: Any = await self._redis.get(_entry(key))
        return None if value is None else bytes(value)

    async def claim(self, key: str, ttl_s: float) -> bool:
        async with self._answers("claim"):
            won = await self._redis.set(_entry(key), b"1", px=_ms(ttl_s), nx=True)
        return bool(won)

    async def delete(self, key: str) -> None:
        async with self._answers("delete"):
            await self._redis.delete(_entry(key))

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        async with self._answers("add_state"), self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(_session(session), state, value)
            pipe.pexpire(_session(session), _ms(ttl_s))
            await pipe.execute()

    async def states(self, session: str) -> dict[str, bytes]:
        async with self._answers("states"):
            held: dict[Any, Any] = await self._redis.hgetall(_session(session))
        return {_text(state): bytes(value) for state, value in held.items()}

    async def drop_session(self, session: str) -> None:
        async with self._answers("drop_session"):
            await self._redis.delete(_session(session))

    async def healthy(self) -> bool:
        try:
            async with self._answers("ping"):
                await self._redis.ping()
        except (StoreUnavailable, StoreFull):
            return False
        return True

    async def aclose(self) -> None:
        await self._redis.aclose()

    @asynccontextmanager
    async def _answers(self, operation: str) -> AsyncIterator[None]:
        """The operation within the time limit; Redis's errors as the store's."""
        try:
            with anyio.fail_after(self._timeout_s):
                yield
        except TimeoutError:
            raise StoreUnavailable(
                f"the Redis state store {self._shown} did not answer {operation} within {self._timeout_s:g} s"
            ) from None
        except redis_errors.OutOfMemoryError as exc:
            raise StoreFull(
                f"the Redis state store {self._shown} is out of memory (its maxmemory): entries expire when their "
                "sessions or paused runs do"
            ) from exc
        except redis_errors.ResponseError as exc:
            raise StoreUnavailable(f"the Redis state store {self._shown} refused {operation}: {_reason(exc)}") from exc
        except (redis_errors.RedisError, OSError) as exc:
            raise StoreUnavailable(f"the Redis state store {self._shown} cannot be reached: {_reason(exc)}") from exc


def _entry(key: str) -> str:
    return f"{KEY_PREFIX}entry:{key}"


def _session(session: str) -> str:
    return f"{KEY_PREFIX}session:{session}"


def _ms(ttl_s: float) -> int:
    return max(1, round(ttl_s * 1000))


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _reason(exc: BaseException) -> str:
    """What went wrong, in a line that never carries the URL's password (the client's messages name host and port),
    nor what was being written (an error in a ``MULTI`` quotes the command and its arguments before Redis's words)."""
    text = str(exc).rsplit("caused error: ", 1)[-1]
    return text.splitlines()[0][:200] if text else type(exc).__name__
