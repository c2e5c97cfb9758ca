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


@pytest.mark.parametrize("hook_fails", [False, True])
async def test_the_relay_tells_of_each_answer_as_it_goes_out_and_a_failing_hook_stops_nothing(
    hook_fails: bool, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[types.RequestId] = []

    def on_answer(request_id: types.RequestId) -> None:
        heard.append(request_id)
        if hook_fails:
            raise RuntimeError("the hook broke")

    source_writer, source = anyio.create_memory_object_stream[SessionMessage | Exception](2)
    sink, sink_reader = anyio.create_memory_object_stream[SessionMessage](10)
    to_server, server_input = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    server_output, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    for request_id in (1, "two"):
        await source_writer.send(SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=request_id, method="ping")))
    source_writer.close()

    async def relay() -> None:
        await relay_until_drained(
            source, sink, to_server, from_server, stop=anyio.Event(), drain_timeout=60, on_answer=on_answer
        )

    with anyio.fail_after(10):
        async with source, sink_reader, anyio.create_task_group() as group:
            group.start_soon(relay)
            async with server_input, server_output:
                for _ in range(2):
                    request = await server_input.receive()
                    assert isinstance(request, SessionMessage) and isinstance(request.message, types.JSONRPCRequest)
                    notice = types.JSONRPCNotification(jsonrpc="2.0", method="notifications/progress", params={})
                    await server_output.send(SessionMessage(notice))
                    answer = types.JSONRPCResponse(jsonrpc="2.0", id=request.message.id, result={})
                    await server_output.send(SessionMessage(answer))
            answers = [item.message async for item in sink_reader]
    assert [getattr(message, "id", None) for message in answers] == [None, 1, None, "two"]
    assert heard == [1, "two"]
    assert ("the server's look at an answer failed" in caplog.text) is hook_fails
