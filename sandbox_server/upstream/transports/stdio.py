"""An upstream server this server starts as a child process, talking MCP over its stdin and stdout."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.client._transport import TransportStreams
from mcp.client.stdio import StdioServerParameters, stdio_client

from sandbox_server.upstream.entries import Entry
from sandbox_server.upstream.transports.base import TransportKind

if TYPE_CHECKING:
    from sandbox_server.upstream.config import ServerConfig

__all__ = ["Stdio"]


class Stdio(TransportKind):
    name = "stdio"
    types = ("stdio",)
    keys = frozenset({"command", "args", "env", "cwd", "envFile"})
    ended = "the server process exited"
    local = True

    def infer(self, entry: Entry) -> bool:
        return "command" in entry

    def read(self, entry: Entry) -> dict[str, Any]:
        command = entry.string("command")
        if not command:
            entry.fail("command", "is missing or empty", 'the program to run, e.g. "npx"')
        args = [entry.expand("args", arg) for arg in entry.strings("args")]
        # The file's variables first, so that ``env`` names the values that win.
        env = {**entry.env_file("envFile"), **entry.expanded_map("env")}
        return {
            "command": entry.expand("command", command),
            "args": tuple(args),
            "env": env,
            "cwd": entry.expanded("cwd"),
        }

    @asynccontextmanager
    async def open(self, config: ServerConfig) -> AsyncIterator[TransportStreams]:
        assert config.command is not None
        # stdio_client gives the child only a safe default environment (HOME, PATH, ...) plus ``env``.
        parameters = StdioServerParameters(
            command=config.command, args=list(config.args), env=dict(config.env), cwd=config.cwd
        )
        async with stdio_client(parameters) as streams:
            yield streams
