"""What this server is called and which version it is, for the server itself and for the clients it makes."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["DISTRIBUTION", "SERVER_NAME", "SERVER_TITLE", "install_line", "package_version"]

SERVER_NAME = "sandbox-server"
SERVER_TITLE = "Sandbox: exact computation for language models"
DISTRIBUTION = "mcp-v8-sandbox"
"""The distribution's name (``[project] name`` in pyproject.toml): what pip, pipx and uv install. The import package
is ``sandbox_server`` and the command ``sandbox-server``; ``sandbox-server`` on the package index is another project
(an install line with that name would fetch it), so every install line and message takes the name from here."""


def install_line(extra: str) -> str:
    """The command that adds the optional ``extra`` to an environment that has the server."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def package_version() -> str:
    """The installed distribution's version, from its metadata."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "0.0.0+unknown"
