"""Serving over stdio, with the shutdown the protocol's users expect.

The SDK's stdio transport stops as soon as stdin reaches end-of-file, dropping requests still being worked on,
and it ignores lines that are not JSON. Between the transport and the server this module puts a thin relay that

- answers a line that is not JSON with a parse error (``-32700``, ``id: null``) and JSON that is not a
  JSON-RPC message with an invalid-request error (``-32600``), as JSON-RPC 2.0 requires;
- answers itself what the SDK would mishandle: a request whose id is not a string or an integer, a second
  request under the id of one still in progress, a second ``initialize`` (``-32600`` each);
- bounds what requests in progress hold by the same memory budget as HTTP (:mod:`sandbox_server.backlog`): a
  request whose estimated size does not fit is answered at once that the server is busy (``-32000``), and a line
  longer than the largest message the server accepts is answered ``-32600`` without being held in memory;
- on end-of-input or SIGTERM stops reading, waits until every request already received has been answered
  (bounded by ``drain_timeout``), and only then lets the server shut down (which stops the worker pool); a
  further SIGTERM during that drain is logged and changes nothing.
"""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from sandbox_server.backlog import Backlog
from sandbox_server.transport.hints import EarlyWord
from sandbox_server.transport.stdio.lines import STDIN_FILENO, InputLines, LineRecord, OutputLines
from sandbox_server.transport.stdio.relay import InFlight, relay_until_drained

__all__ = ["InFlight", "InputLines", "LineRecord", "OutputLines", "relay_until_drained", "serve_stdio"]

logger = logging.getLogger(__name__)


async def serve_stdio(
    server: Server[Any],
    *,
    drain_timeout: float,
    backlog: Backlog | None = None,
    max_line_bytes: int | None = None,
    max_line_values: int | None = None,
    on_run: EarlyWord | None = None,
    on_answer: Callable[[types.RequestId], None] | None = None,
) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes or SIGTERM arrives, answering what was received.

    With a ``backlog``, requests whose estimated memory does not fit are refused; lines longer than
    ``max_line_bytes`` are refused without being kept. ``on_run`` hears each line that announces a run or a cancellation
    (:mod:`sandbox_server.transport.hints`) as soon as it is read, and ``on_answer`` the id of each request answered.
    """
    lines = InputLines(STDIN_FILENO, max_line_bytes, max_line_values, on_run)
    output = OutputLines()
    # The transport only iterates over its stdin and calls write and flush on its stdout.
    stdin = cast("anyio.AsyncFile[str]", lines)
    stdout = cast("anyio.AsyncFile[str]", output)
    try:
        await _serve_streams(server, stdin, stdout, lines, drain_timeout, backlog, on_answer)
    finally:
        output.close()


async def _serve_streams(
    server: Server[Any],
    stdin: anyio.AsyncFile[str],
    stdout: anyio.AsyncFile[str],
    lines: InputLines,
    drain_timeout: float,
    backlog: Backlog | None = None,
    on_answer: Callable[[types.RequestId], None] | None = None,
) -> None:
    stop = anyio.Event()
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def watch_signals() -> None:
        # The receiver stays open for the whole drain: a second SIGTERM must not fall back to the default action,
        # which would end the process with requests still unanswered (SIGKILL remains the way to stop at once).
        with anyio.open_signal_receiver(signal.SIGTERM) as signals:
            async for signum in signals:
                if stop.is_set():
                    logger.warning("received signal %d again; still draining (SIGKILL stops at once)", signum)
                    continue
                logger.info("received signal %d; finishing requests in progress", signum)
                stop.set()

    async with stdio_server(stdin=stdin, stdout=stdout) as (source, sink), anyio.create_task_group() as group:
        group.start_soon(watch_signals)

        async def run_server() -> None:
            async with server_input, server_output:
                await server.run(server_input, server_output, server.create_initialization_options())

        group.start_soon(run_server)
        await relay_until_drained(
            source,
            sink,
            to_server,
            from_server,
            stop=stop,
            drain_timeout=drain_timeout,
            lines=lines,
            backlog=backlog,
            on_answer=on_answer,
        )
        # The server saw the end of its input and has returned (its lifespan stopped the workers). Lines that
        # came after a SIGTERM are dropped; the transport's reader then ends with the input.
        lines.close()
        async for _ in source:
            pass
        group.cancel_scope.cancel()
