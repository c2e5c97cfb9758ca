"""The distribution this package is installed as: its name on the package index and in the installed metadata.

The import package is ``sandbox_server`` and the command ``sandbox-server``; the distribution is named
``mcp-v8-sandbox``, because ``sandbox-server`` on the package index is another project (an install line with that
name would fetch it). Every install line and message takes the name from here.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["DISTRIBUTION", "install_line", "package_version"]

DISTRIBUTION = "mcp-v8-sandbox"
"""The distribution's name (``[project] name`` in pyproject.toml)."""


def install_line(extra: str) -> str:
    """The command that adds the optional ``extra`` to an environment that has the server."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def package_version() -> str:
    """The installed distribution's version, from its metadata."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
        return "0.0.0+unknown"
