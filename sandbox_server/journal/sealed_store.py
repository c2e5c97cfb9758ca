"""A shared state store's entries sealed with the server's keys: what a store that other processes can reach holds
(the code, inputs and upstream answers of sessions and paused runs) can be neither read nor altered there.

A store shared by replicas is reachable by whoever can reach its Redis or its file, not only by the server. If its
entries were plain, whoever can write to it could change the code a session replays, the upstream answers a resumed
run is served, or its record of the user's consent. So every value goes in sealed (AES-256-GCM, under keys derived
from ``SANDBOX_STATE_KEYS`` apart from those of request states and handles) and bound to where it is kept: a value
altered, or moved to another key or another session, does not unseal, and is then taken as absent (a session state
that is gone, a paused run's journal that is not there), never as another value. Claims hold no value; what they
record is that a key exists, which the store's own atomic check-and-set decides.
"""

from __future__ import annotations

import logging

from sandbox_server.journal.keys import EntryRefused, StateKeys
from sandbox_server.journal.store import StateStore

__all__ = ["SealedStore"]

logger = logging.getLogger(__name__)


class SealedStore:
    """``inner`` with every value sealed by ``keys`` (a :class:`StateStore` itself)."""

    def __init__(self, inner: StateStore, keys: StateKeys) -> None:
        self.inner = inner
        self.kind = inner.kind
        self._keys = keys

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        await self.inner.put(key, self._keys.seal_entry(f"entry:{key}", value), ttl_s)

    async def get(self, key: str) -> bytes | None:
        data = await self.inner.get(key)
        if data is None:
            return None
        try:
            return self._keys.unseal_entry(f"entry:{key}", data)
        except EntryRefused as exc:
            logger.warning("state store entry %r refused: %s", key[:80], exc)
            return None

    async def claim(self, key: str, ttl_s: float) -> bool:
        return await self.inner.claim(key, ttl_s)

    async def delete(self, key: str) -> None:
        await self.inner.delete(key)

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        sealed = self._keys.seal_entry(f"state:{session}:{state}", value)
        await self.inner.add_state(session, state, sealed, ttl_s)

    async def states(self, session: str) -> dict[str, bytes]:
        opened = {}
        for state, data in (await self.inner.states(session)).items():
            try:
                opened[state] = self._keys.unseal_entry(f"state:{session}:{state}", data)
            except EntryRefused as exc:
                logger.warning("state %r of a session refused: %s", state[:80], exc)
        return opened

    async def drop_session(self, session: str) -> None:
        await self.inner.drop_session(session)

    async def healthy(self) -> bool:
        return await self.inner.healthy()

    async def aclose(self) -> None:
        await self.inner.aclose()
