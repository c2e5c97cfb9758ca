"""A state store that reports the exceptions its calls raise (for the metrics), then lets them go on unchanged."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from sandbox_server.journal.store import StateStore

__all__ = ["ObservedStore"]

T = TypeVar("T")

ErrorHook = Callable[[str, Exception], None]
"""Called with the operation's name (``put``, ``get``, ...) and the exception it raised."""


class ObservedStore:
    """``store`` behind the :class:`StateStore` interface, calling ``on_error`` for each exception one of its calls
    raises (the exception is re-raised as it was; cancellation is not an error and is not reported)."""

    def __init__(self, store: StateStore, on_error: ErrorHook) -> None:
        self.inner = store
        self.kind = store.kind
        self._on_error = on_error

    async def _observed(self, operation: str, call: Awaitable[T]) -> T:
        try:
            return await call
        except Exception as exc:
            self._on_error(operation, exc)
            raise

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        await self._observed("put", self.inner.put(key, value, ttl_s))

    async def get(self, key: str) -> bytes | None:
        return await self._observed("get", self.inner.get(key))

    async def claim(self, key: str, ttl_s: float) -> bool:
        return await self._observed("claim", self.inner.claim(key, ttl_s))

    async def delete(self, key: str) -> None:
        await self._observed("delete", self.inner.delete(key))

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        await self._observed("add_state", self.inner.add_state(session, state, value, ttl_s))

    async def states(self, session: str) -> dict[str, bytes]:
        return await self._observed("states", self.inner.states(session))

    async def drop_session(self, session: str) -> None:
        await self._observed("drop_session", self.inner.drop_session(session))

    async def healthy(self) -> bool:
        return await self._observed("healthy", self.inner.healthy())

    async def aclose(self) -> None:
        await self._observed("aclose", self.inner.aclose())
