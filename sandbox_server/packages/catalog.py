"""The packages a running server offers: the lock it started with, read once at start-up."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sandbox_server.errors import ConfigurationError, PackageError
from sandbox_server.packages.integrity import file_digest
from sandbox_server.packages.lock import Lock
from sandbox_server.packages.store import LOCK_NAME

__all__ = ["Catalog", "server_catalog"]


@dataclass(frozen=True, slots=True)
class Catalog:
    """The added packages of one folder, as the server saw them when it started.

    Attributes:
        folder: The packages folder.
        digest: SHA-256 of the lock file's bytes; workers load only a lock with this digest.
        names: The names the user added (not their dependencies), sorted.
    """

    folder: Path
    digest: str
    names: tuple[str, ...]

    @classmethod
    def open(cls, folder: Path) -> Catalog | None:
        """The folder's packages; None when nothing was added.

        Raises:
            PackageError: The lock exists but cannot be read.
        """
        path = folder / LOCK_NAME
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise PackageError(f"cannot read the packages lock {path}: {exc}") from exc
        lock = Lock.from_text(data.decode("utf-8", "replace"), str(path))
        if not lock.roots:
            return None
        return cls(folder, file_digest(data), tuple(sorted(lock.roots)))

    def request(self) -> dict[str, str]:
        """What a run request carries so that its worker finds the packages."""
        return {"dir": str(self.folder), "lock": self.digest}


def server_catalog(folder: Path) -> Catalog | None:
    """The packages a server starting now offers; an unreadable lock stops the start (ConfigurationError)."""
    try:
        return Catalog.open(folder)
    except PackageError as exc:
        message = f"{exc}; fix the lock or add the packages again (sandbox-server packages add)"
        raise ConfigurationError(message) from exc
