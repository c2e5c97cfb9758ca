"""The stdio relay on its own, with memory streams for the transport and the server: races that a real
process hits only now and then, made to happen every time."""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage

from sandbox_server.transport.stdio import relay_until_drained

pytestmark = pytest.mark.anyio


async def test_a_request_being_handed_to_the_server_when_sigterm_arrives_still_reaches_it_and_is_answered() -> None:
    source_writer, source = anyio.create_memory_object_stream[SessionMessage | Exception](1)
    sink, sink_reader = anyio.create_memory_object_stream[SessionMessage](10)
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    stop = anyio.Event()
    await source_writer.send(SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=1, method="ping")))

    with anyio.fail_after(10):
        async with source_writer, source, sink_reader, anyio.create_task_group() as group:
            group.start_soon(
                lambda: relay_until_drained(source, sink, to_server, from_server, stop=stop, drain_timeout=60)
            )
            await anyio.wait_all_tasks_blocked()  # the relay holds the request, the server has not taken it yet
            stop.set()
            await anyio.wait_all_tasks_blocked()
            async with server_input, server_output:
                request = await server_input.receive()
                assert isinstance(request, SessionMessage)
                await server_output.send(SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={})))
                assert [item async for item in server_input] == []  # the relay closes the input once answered
            answer = sink_reader.receive_nowait().message
    assert isinstance(answer, types.JSONRPCResponse)
    assert answer.id == 1
