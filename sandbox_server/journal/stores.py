"""Opening the state store a server is configured with (``SANDBOX_STATE_STORE``, see
:mod:`sandbox_server.store_location`).

A store that other processes share holds what one process sealed for another to open, so it needs the keys they
share (``SANDBOX_STATE_KEYS``): without them every process would seal with a key of its own, and none could read
another's sessions or paused runs. :func:`open_store` refuses to start so, naming the variable.
"""

from __future__ import annotations

import logging

from sandbox_server.errors import ConfigurationError
from sandbox_server.journal.keys import STATE_KEYS_VARIABLE, StateKeys
from sandbox_server.journal.sealed_store import SealedStore
from sandbox_server.journal.store import MemoryStore, StateStore
from sandbox_server.store_location import STATE_STORE_VARIABLE, parse_store_url

__all__ = ["DEFAULT_STORE_TIMEOUT_S", "open_store"]

logger = logging.getLogger(__name__)

DEFAULT_STORE_TIMEOUT_S = 5.0
"""The longest one operation on a shared store may take before the call that needed it is answered an error."""


def open_store(text: str, keys: StateKeys | None, *, timeout_s: float = DEFAULT_STORE_TIMEOUT_S) -> StateStore:
    """The store ``text`` (a ``SANDBOX_STATE_STORE`` value) names, not yet connected; a shared one seals its entries
    with ``keys`` (:mod:`.sealed_store`).

    Args:
        text: The setting.
        keys: The server's keys; a shared store needs them from ``SANDBOX_STATE_KEYS``.
        timeout_s: The longest one operation may take.

    Raises:
        ConfigurationError: The value names no store, a shared store has no keys to go with it, or the Redis
            client is not installed.
    """
    try:
        location = parse_store_url(text)
    except ValueError as exc:
        raise ConfigurationError(f"{STATE_STORE_VARIABLE}: {exc}") from None
    shared_keys = keys is not None and keys.shared
    if location.shared and not shared_keys:
        raise ConfigurationError(
            f"{STATE_STORE_VARIABLE}={location.shown} shares sessions and paused runs between server processes, but "
            f"{STATE_KEYS_VARIABLE} is not set: each process would seal what it keeps with a key of its own, which no "
            f"other process (nor this one, restarted) can read. Set {STATE_KEYS_VARIABLE} to the same secret on every "
            "replica (at least 32 bytes; comma-separate old keys after the new one to rotate)"
        )
    if location.kind == "sqlite":
        from sandbox_server.journal.sqlite_store import SqliteStore

        assert location.path is not None and keys is not None
        return SealedStore(SqliteStore(location.path, timeout_s=timeout_s), keys)
    if location.kind == "redis":
        try:
            from sandbox_server.journal.redis_store import RedisStore
        except ImportError:
            raise ConfigurationError(
                f"{STATE_STORE_VARIABLE}={location.shown} needs the Redis client, which is not installed: "
                "pip install 'mcp-v8-sandbox[redis]'"
            ) from None
        assert location.url is not None and keys is not None
        return SealedStore(RedisStore(location.url, shown=location.shown, timeout_s=timeout_s), keys)
    if shared_keys:
        logger.warning(
            "%s is set but %s is memory: replicas that share the keys read each other's handles and paused runs, "
            "but not the states they kept, nor which paused runs were resumed already; give them a shared store",
            STATE_KEYS_VARIABLE,
            STATE_STORE_VARIABLE,
        )
    return MemoryStore()
