"""A :class:`~sandbox_server.journal.store.StateStore` in an SQLite file, for server processes on one host: what it
holds survives their restarts, and every process that opens the file sees the others' entries.

Each operation is one transaction, run on a thread of its own (SQLite blocks), one at a time per process; the
database is in WAL mode, so that readers never wait for a writer, and a writer waits for another process's writer at
most the store's time limit. A claim is ``INSERT OR IGNORE`` inside ``BEGIN IMMEDIATE``: of two processes claiming
the same key, exactly one inserts it. Expiry is by the wall clock (``time.time()``), the one clock every process and
restart shares; expired rows are never returned, and are deleted every :data:`PURGE_INTERVAL_S`.

The file is created readable and writable by its owner only (SQLite gives its ``-wal`` and ``-shm`` files the same
permissions): journals hold the code, inputs and upstream answers of sessions and paused runs.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import anyio
import anyio.to_thread

from sandbox_server.journal.store import StoreFull, StoreUnavailable

__all__ = ["DEFAULT_SQLITE_STORE_BYTES", "PURGE_INTERVAL_S", "SqliteStore"]

logger = logging.getLogger(__name__)

DEFAULT_SQLITE_STORE_BYTES = 2 * 2**30
"""Most bytes the database file may grow to; past it a write is refused (:class:`StoreFull`)."""
PURGE_INTERVAL_S = 30.0
"""How often (at most) a process deletes expired rows, on its next write."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (session TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS states (
    session TEXT NOT NULL, state TEXT NOT NULL, value BLOB NOT NULL, PRIMARY KEY (session, state)
);
"""

T = TypeVar("T")


class SqliteStore:
    """Entries, sessions and claims in the SQLite database at ``path`` (created if absent; its folder must exist).

    Args:
        path: The database file.
        timeout_s: The longest any operation may take, waiting for another process's write included.
        max_bytes: The most the file may hold.
    """

    kind = "sqlite"

    def __init__(self, path: Path, *, timeout_s: float = 5.0, max_bytes: int = DEFAULT_SQLITE_STORE_BYTES) -> None:
        self.path = path
        self._timeout_s = timeout_s
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._purged = 0.0

    async def put(self, key: str, value: bytes, ttl_s: float) -> None:
        def write(db: sqlite3.Connection, now: float) -> None:
            db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)", (key, value, now + ttl_s))

        await self._write(write)

    async def get(self, key: str) -> bytes | None:
        def read(db: sqlite3.Connection, now: float) -> bytes | None:
            row = db.execute("SELECT value FROM entries WHERE key = ? AND expires > ?", (key, now)).fetchone()
            return None if row is None else bytes(row[0])

        return await self._run(read)

    async def claim(self, key: str, ttl_s: float) -> bool:
        def write(db: sqlite3.Connection, now: float) -> bool:
            db.execute("DELETE FROM entries WHERE key = ? AND expires <= ?", (key, now))
            inserted = db.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?)", (key, b"1", now + ttl_s))
            return inserted.rowcount == 1

        return await self._write(write)

    async def delete(self, key: str) -> None:
        await self._write(lambda db, now: db.execute("DELETE FROM entries WHERE key = ?", (key,)))

    async def add_state(self, session: str, state: str, value: bytes, ttl_s: float) -> None:
        def write(db: sqlite3.Connection, now: float) -> None:
            # A session that has expired but was not yet purged starts again empty, as if it had been.
            db.execute(
                "DELETE FROM states WHERE session = ? AND session IN "
                "(SELECT session FROM sessions WHERE session = ? AND expires <= ?)",
                (session, session, now),
            )
            db.execute("INSERT OR REPLACE INTO states VALUES (?, ?, ?)", (session, state, value))
            db.execute(
                "INSERT INTO sessions VALUES (?, ?) ON CONFLICT (session) DO UPDATE SET expires = excluded.expires",
                (session, now + ttl_s),
            )

        await self._write(write)

    async def states(self, session: str) -> dict[str, bytes]:
        def read(db: sqlite3.Connection, now: float) -> dict[str, bytes]:
            db.execute("BEGIN")
            try:
                live = db.execute("SELECT 1 FROM sessions WHERE session = ? AND expires > ?", (session, now)).fetchone()
                rows = (
                    db.execute("SELECT state, value FROM states WHERE session = ?", (session,)).fetchall()
                    if live
                    else []
                )
            finally:
                db.execute("COMMIT")
            return {str(state): bytes(value) for state, value in rows}

        return await self._run(read)

    async def drop_session(self, session: str) -> None:
        def write(db: sqlite3.Connection, now: float) -> None:
            db.execute("DELETE FROM states WHERE session = ?", (session,))
            db.execute("DELETE FROM sessions WHERE session = ?", (session,))

        await self._write(write)

    async def healthy(self) -> bool:
        try:
            await self._run(lambda db, now: db.execute("SELECT count(*) FROM sessions").fetchone())
        except (StoreUnavailable, StoreFull):
            return False
        return True

    async def aclose(self) -> None:
        """Close the connection (a later operation opens it again)."""

        def close() -> None:
            with self._lock:
                if self._connection is not None:
                    self._connection.close()
                    self._connection = None

        await anyio.to_thread.run_sync(close)

    async def _write(self, change: Callable[[sqlite3.Connection, float], T]) -> T:
        """``change`` in one write transaction, purging expired rows first when it is time to."""

        def transaction(db: sqlite3.Connection, now: float) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                if now - self._purged >= PURGE_INTERVAL_S:
                    _purge(db, now)
                    self._purged = now
                value = change(db, now)
            except BaseException:
                if db.in_transaction:  # some errors (SQLITE_FULL) have rolled it back already
                    db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return value

        return await self._run(transaction)

    async def _run(self, operation: Callable[[sqlite3.Connection, float], T]) -> T:
        """``operation`` on the connection, on a thread, within the time limit; SQLite's errors become the store's."""

        def on_thread() -> T:
            if not self._lock.acquire(timeout=self._timeout_s):
                raise StoreUnavailable(self._slow())
            try:
                return operation(self._connect(), time.time())
            finally:
                self._lock.release()

        try:
            with anyio.fail_after(self._timeout_s + 1.0):
                return await anyio.to_thread.run_sync(on_thread, abandon_on_cancel=True)
        except TimeoutError:
            raise StoreUnavailable(self._slow()) from None
        except sqlite3.Error as exc:
            raise _mapped(exc, self.path, self._max_bytes) from exc
        except OSError as exc:
            raise StoreUnavailable(f"the SQLite state store {str(self.path)!r} cannot be opened: {exc}") from exc

    def _slow(self) -> str:
        return (
            f"the SQLite state store {str(self.path)!r} did not answer within {self._timeout_s:g} s (another process "
            "holds it, or its disk is slow)"
        )

    def _connect(self) -> sqlite3.Connection:
        """The open connection (on first use: the file created owner-only, WAL mode, the tables)."""
        if self._connection is not None:
            return self._connection
        if not self.path.exists():
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        elif self.path.stat().st_mode & 0o077:
            logger.warning(
                "the SQLite state store %s can be read by other users than its owner; it holds the code, inputs and "
                "upstream answers of sessions and paused runs: chmod 600 it",
                self.path,
            )
        db = sqlite3.connect(self.path, timeout=self._timeout_s, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")  # in WAL mode: a commit survives the process's crash
            page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
            db.execute(f"PRAGMA max_page_count = {max(1, self._max_bytes // page_size)}")
            db.executescript(_SCHEMA)
        except BaseException:
            db.close()
            raise
        self._connection = db
        return db


def _purge(db: sqlite3.Connection, now: float) -> None:
    db.execute("DELETE FROM entries WHERE expires <= ?", (now,))
    db.execute("DELETE FROM states WHERE session IN (SELECT session FROM sessions WHERE expires <= ?)", (now,))
    db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))


def _mapped(exc: sqlite3.Error, path: Path, max_bytes: int) -> StoreFull | StoreUnavailable:
    """The store's error for one of SQLite's."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return StoreFull(
            f"the SQLite state store {str(path)!r} is full (at most {max_bytes} bytes, or its disk is); entries "
            "expire when their sessions or paused runs do"
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreUnavailable(f"the SQLite state store {str(path)!r} stayed locked by another process: {exc}")
    return StoreUnavailable(f"the SQLite state store {str(path)!r} failed: {exc}")
