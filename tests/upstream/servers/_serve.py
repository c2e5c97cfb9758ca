"""Running a test server: over stdio by default, over Streamable HTTP on 127.0.0.1 with ``--http PORT``."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

import anyio
import uvicorn
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.stdio import stdio_server

__all__ = ["arguments", "run", "text"]


def arguments(argv: list[str] | None = None, **extra: Any) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT (0: any)")
    parser.add_argument("--port-file", type=Path, help="write the HTTP port here once listening")
    for flag, options in extra.items():
        parser.add_argument(flag, **options)
    return parser.parse_args(argv)


def run(server: Server[Any], args: argparse.Namespace) -> None:
    if args.http is None:
        anyio.run(_serve_stdio, server)
        return
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.http))
    sock.listen(64)
    if args.port_file is not None:
        # Written whole then renamed, so a reader polling for the file never sees half a number.
        partial = args.port_file.with_suffix(".partial")
        partial.write_text(str(sock.getsockname()[1]), encoding="utf-8")
        partial.replace(args.port_file)
    app = server.streamable_http_app(host="127.0.0.1")
    uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")).run(sockets=[sock])


async def _serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        options = server.create_initialization_options(NotificationOptions(tools_changed=True))
        await server.run(read, write, options)


def text(value: str) -> Any:
    from mcp_types import TextContent

    return TextContent(type="text", text=value)
