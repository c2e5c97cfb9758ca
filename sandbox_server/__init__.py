"""sandbox-server: an MCP server that lets language models compute instead of guess.

It publishes exact deterministic tools (``add``, ``divide``, ``date_diff``) and ``execute_js``, which runs
model-written JavaScript in a fresh V8 isolate inside supervised worker processes with hard time, memory and
output limits.
"""

from __future__ import annotations

from sandbox_server.cli import main
from sandbox_server.server import build_server, package_version
from sandbox_server.settings import Settings

__version__ = package_version()

__all__ = ["Settings", "__version__", "build_server", "main"]
