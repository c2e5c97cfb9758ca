"""The smallest MCP server the Python SDK makes: one ``add`` tool over stdio, and nothing of sandbox-server's.

Section 23 calls it beside sandbox-server's own ``add`` so that the SDK's share of a call (its transport, dispatch,
validation and serialisation on both ends) is measured, not assumed.
"""

from __future__ import annotations

from decimal import Decimal

from mcp.server.mcpserver import MCPServer

__all__ = ["main", "make_server"]


def make_server() -> MCPServer:
    """A new server: one per connection, as an in-process client runs its lifespan."""
    server = MCPServer("sdk-floor")

    @server.tool()
    def add(a: str, b: str) -> str:
        """The exact sum of two decimal numbers written as strings."""
        return str(Decimal(a) + Decimal(b))

    return server


def main() -> None:
    """Serve over stdio (section 23 starts it with ``python -c``: no benchmark module is an entry point)."""
    make_server().run("stdio")
