"""The smallest MCP server the Python SDK makes: one ``add`` tool over stdio, and nothing of sandbox-server's.

Section 23 calls it beside sandbox-server's own ``add`` so that the SDK's share of a call (its transport, dispatch,
validation and serialisation on both ends) is measured, not assumed. Run as ``python -m benchmarks.sdk_floor_server``.
"""

from __future__ import annotations

from decimal import Decimal

from mcp.server.mcpserver import MCPServer

__all__ = ["main", "server"]

server = MCPServer("sdk-floor")


@server.tool()
def add(a: str, b: str) -> str:
    """The exact sum of two decimal numbers written as strings."""
    return str(Decimal(a) + Decimal(b))


def main() -> None:
    server.run("stdio")


if __name__ == "__main__":
    main()
