"""sandbox-server: an MCP server that lets language models compute instead of guess.

It publishes exact deterministic tools (``add``, ``divide``, ``date_diff``) and ``execute_js``, which runs
model-written JavaScript in a fresh V8 isolate inside supervised worker processes with hard time, memory and
output limits.

The public names are loaded on first use, so that a worker process (``sandbox_server.sandbox.worker``), which
needs none of the server, starts without importing the MCP SDK.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sandbox_server.cli import main
    from sandbox_server.server import build_server
    from sandbox_server.settings import Settings

__all__ = ["Settings", "__version__", "build_server", "main"]

_WHERE = {
    "Settings": "sandbox_server.settings",
    "build_server": "sandbox_server.server",
    "main": "sandbox_server.cli",
}


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from sandbox_server.identity import package_version

        return package_version()
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'sandbox_server' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
