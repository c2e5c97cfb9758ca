"""Which state store a server uses: ``SANDBOX_STATE_STORE`` (``--state-store``), read by :func:`parse_store_url`
(the store itself is opened by :func:`sandbox_server.journal.stores.open_store`).

- ``memory`` (the default): in this process; what it holds ends with it, and no other process sees it.
- ``sqlite:///PATH``: an SQLite file, for server processes on one host; it survives their restarts.
- ``redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`` (``rediss://`` for TLS): for server processes anywhere.

This module needs nothing but the standard library, so that the settings can check the value at start-up.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["ACCEPTED_STORES", "STATE_STORE_VARIABLE", "StoreLocation", "parse_store_url"]

STATE_STORE_VARIABLE = "SANDBOX_STATE_STORE"
ACCEPTED_STORES = "memory, sqlite:///PATH (an absolute path) or redis://HOST:PORT/DB"
DEFAULT_REDIS_PORT = 6379


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """A parsed ``SANDBOX_STATE_STORE``."""

    kind: Literal["memory", "sqlite", "redis"]
    path: Path | None = None
    url: str | None = None
    shown: str = "memory"
    """The location as messages and logs show it: a password never."""

    @property
    def shared(self) -> bool:
        """Whether other processes can share it."""
        return self.kind != "memory"


def parse_store_url(text: str) -> StoreLocation:
    """The store ``text`` names.

    Raises:
        ValueError: It names none; the message says what is accepted (and never repeats a password).
    """
    value = text.strip()
    if value == "memory":
        return StoreLocation("memory")
    scheme, sep, rest = value.partition("://")
    scheme = scheme.lower()
    if scheme == "sqlite" and sep:
        return _sqlite(rest)
    if scheme in ("redis", "rediss") and sep:
        return _redis(value)
    shown = _without_password(value)
    raise ValueError(f"{shown!r} is not a state store: use {ACCEPTED_STORES}")


def _sqlite(rest: str) -> StoreLocation:
    if not rest.startswith("/") or rest.strip("/") == "":
        raise ValueError(
            f"sqlite://{rest} names no file: give the database's absolute path after sqlite://, as in "
            "sqlite:///var/lib/sandbox-server/state.db"
        )
    if "?" in rest or "#" in rest:
        raise ValueError(f"sqlite://{rest}: options are not accepted, only the database's path")
    path = Path("/" + urllib.parse.unquote(rest).lstrip("/"))  # sqlite:////PATH (four slashes) means the same
    if path.is_dir():
        raise ValueError(f"sqlite://{rest} is a folder: name the database file in it, as in {path / 'state.db'}")
    if not path.parent.is_dir():
        raise ValueError(f"sqlite://{rest}: the folder {str(path.parent)!r} does not exist (the file is made in it)")
    return StoreLocation("sqlite", path=path, shown=f"sqlite://{path}")


def _redis(value: str) -> StoreLocation:
    shown = _without_password(value)
    try:
        parts = urllib.parse.urlsplit(value)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{shown!r} is not a Redis URL ({exc}): use redis://HOST:PORT/DB") from None
    if not parts.hostname:
        raise ValueError(f"{shown!r} names no host: use redis://HOST:PORT/DB, as in redis://127.0.0.1:6379/0")
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise ValueError(f"{shown!r}: the database after the port is a number (redis://HOST:PORT/0), not {database!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"{shown!r}: options are not accepted, only redis://[[USER]:PASSWORD@]HOST:PORT/DB")
    canonical = f"{parts.scheme.lower()}://{parts.hostname}:{port or DEFAULT_REDIS_PORT}/{database or 0}"
    return StoreLocation("redis", url=value, shown=canonical)


def _without_password(value: str) -> str:
    """``value`` with any ``user:password@`` taken out."""
    scheme, sep, rest = value.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return value
    return f"{scheme}://***@{rest.split('@', 1)[1]}"
