"""What this server is called and which version it is, for the server itself and for the clients it makes."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["SERVER_NAME", "SERVER_TITLE", "package_version"]

SERVER_NAME = "sandbox-server"
SERVER_TITLE = "Sandbox: exact computation for language models"


def package_version() -> str:
    """The installed package's version, from its metadata."""
    try:
        return version("sandbox-server")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "0.0.0+unknown"
