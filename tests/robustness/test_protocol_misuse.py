"""Protocol misuse over the real stdio transport: every bad message gets the answer JSON-RPC 2.0 and MCP call
for, and the server keeps serving afterwards."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from .wire import INITIALIZE_PARAMS, WireSession, open_session

pytestmark = pytest.mark.anyio

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
CODE_CAP = 100_000  # the default max_code_bytes


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def session() -> Any:
    """One initialised server shared by the cases below; each case checks that it still works afterwards."""
    async with open_session(workers=1) as opened:
        yield opened


async def still_works(session: WireSession) -> None:
    """A tools/call that needs a worker, and one that does not, both succeed."""
    reply = await session.call("execute_js", {"code": "6 * 7"})
    assert reply["result"]["isError"] is False, reply
    assert reply["result"]["structuredContent"]["result"] == 42
    reply = await session.call("add", {"a": 2, "b": 3})
    assert reply["result"]["structuredContent"]["result"] == "5"


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(b'{"jsonrpc": "2.0", "id": 1, "method": ', id="truncated-object"),
        pytest.param(b"not json at all", id="plain-text"),
        pytest.param(b'{"jsonrpc": "2.0", "id": 1, "method": "ping",}', id="trailing-comma"),
        pytest.param(b"\xff\xfe\x00garbage", id="invalid-utf8"),
        pytest.param(b"", id="empty-line"),
    ],
)
async def test_a_line_that_is_not_json_gets_a_parse_error_with_a_null_id(session: WireSession, line: bytes) -> None:
    with anyio.fail_after(30):
        seen = len(session.null_id_errors)
        await session.send_line(line)
        error = await session.next_null_id_error(seen)
        assert error["error"]["code"] == PARSE_ERROR
        assert error["id"] is None
        await still_works(session)


@pytest.mark.parametrize(
    ("message", "expected_id"),
    [
        pytest.param([1, 2, 3], None, id="array"),
        pytest.param("a string", None, id="string"),
        pytest.param({"foo": 1}, None, id="object-without-jsonrpc-fields"),
        pytest.param({"jsonrpc": "1.0", "id": "v1", "method": "ping"}, "v1", id="wrong-version"),
        pytest.param({"jsonrpc": "2.0", "id": "m7", "method": 7}, "m7", id="method-not-a-string"),
        pytest.param({"jsonrpc": "2.0", "id": "p1", "method": "tools/list", "params": [1]}, "p1", id="params-array"),
    ],
)
async def test_valid_json_that_is_not_a_request_gets_an_invalid_request_error(
    session: WireSession, message: Any, expected_id: Any
) -> None:
    with anyio.fail_after(30):
        seen = len(session.null_id_errors)
        await session.send_line(json.dumps(message).encode())
        if expected_id is None:
            error = await session.next_null_id_error(seen)
        else:
            error = await session.reply(expected_id)
        assert error["error"]["code"] == INVALID_REQUEST, error
        await still_works(session)


@pytest.mark.parametrize("bad_id", [None, 1.5, True, {"an": "object"}])
async def test_a_request_whose_id_is_not_a_string_or_integer_is_answered_not_ignored(
    session: WireSession, bad_id: Any
) -> None:
    with anyio.fail_after(30):
        seen = len(session.null_id_errors)
        await session.send({"jsonrpc": "2.0", "id": bad_id, "method": "tools/list"})
        error = await session.next_null_id_error(seen)
        assert error["error"]["code"] == INVALID_REQUEST, error
        await still_works(session)


async def test_a_line_longer_than_any_accepted_message_is_refused_under_its_id_without_being_kept(
    session: WireSession,
) -> None:
    code = "1;" * 2_500_000  # 5 MB, fifty times the cap on code, more than the largest message (2.25 MiB)
    with anyio.fail_after(60):
        reply = await session.call("execute_js", {"code": code})
        assert reply["error"]["code"] == INVALID_REQUEST
        assert "at most 2362688 bytes" in reply["error"]["message"]
        await still_works(session)


async def test_an_invalid_line_of_several_megabytes_is_refused_without_being_parsed(session: WireSession) -> None:
    line = b'{"jsonrpc": "2.0", "id": "big", "method": "tools/call", "params": {"code": "' + b"x" * 5_000_000
    with anyio.fail_after(60):
        await session.send_line(line)
        reply = await session.reply("big")
        assert reply["error"]["code"] == INVALID_REQUEST
        await still_works(session)


async def test_oversized_code_within_the_largest_message_is_a_tool_error_naming_the_cap(session: WireSession) -> None:
    code = "x" * 1_000_000  # 1 MB: ten times the cap on code
    with anyio.fail_after(60):
        reply = await session.call("execute_js", {"code": code})
        result = reply["result"]
        assert result["isError"] is True
        assert str(CODE_CAP) in result["content"][0]["text"]
        assert result["structuredContent"]["error"]["kind"] == "arguments"
        await still_works(session)


async def test_requests_beyond_the_memory_budget_are_refused_as_busy_and_small_ones_still_served() -> None:
    large_input = list(range(50_000))  # about 3.5 MiB by the estimate; a budget of 8 MiB has room for two
    async with open_session(workers=1, SANDBOX_MAX_REQUEST_MEMORY_MB="8") as session:
        code = "await new Promise(resolve => setTimeout(resolve, 800)); input.length"
        with anyio.fail_after(60):
            first = await session.submit(
                "tools/call", {"name": "execute_js", "arguments": {"code": code, "input": large_input}}
            )
            second = await session.submit(
                "tools/call", {"name": "execute_js", "arguments": {"code": code, "input": large_input}}
            )
            refused = await session.call("execute_js", {"code": "1", "input": large_input})
            assert not session.replies[first] and not session.replies[second]  # refused while both still wait
            assert refused["error"]["code"] == -32000
            assert "max_request_memory_mb" in refused["error"]["message"]
            small = await session.call("execute_js", {"code": "6 * 7"})
            assert small["result"]["structuredContent"]["result"] == 42
            for request_id in (first, second):
                assert (await session.reply(request_id))["result"]["structuredContent"]["result"] == 50_000


async def test_an_unknown_method_gets_method_not_found(session: WireSession) -> None:
    with anyio.fail_after(30):
        reply = await session.request("resources/subscribe-to-everything", {})
        assert reply["error"]["code"] == METHOD_NOT_FOUND
        await still_works(session)


async def test_a_notification_with_an_unknown_method_is_ignored(session: WireSession) -> None:
    with anyio.fail_after(30):
        before = (len(session.raw_lines), len(session.null_id_errors))
        await session.notify("notifications/no-such-thing", {"x": 1})
        # A request sent afterwards is answered first: nothing came back for the notification.
        reply = await session.request("ping")
        assert reply["result"] == {}
        assert len(session.raw_lines) == before[0] + 1
        assert len(session.null_id_errors) == before[1]
        await still_works(session)


@pytest.mark.parametrize(
    "params",
    [
        pytest.param({"arguments": {"a": 1, "b": 2}}, id="no-name"),
        pytest.param({"name": 7, "arguments": {}}, id="name-not-a-string"),
        pytest.param({"name": "add", "arguments": [1, 2]}, id="arguments-not-an-object"),
        pytest.param({"name": "no_such_tool", "arguments": {}}, id="unknown-tool"),
    ],
)
async def test_invalid_tools_call_params_get_invalid_params(session: WireSession, params: dict[str, Any]) -> None:
    with anyio.fail_after(30):
        reply = await session.request("tools/call", params)
        assert reply["error"]["code"] == INVALID_PARAMS, reply
        await still_works(session)


async def test_a_second_initialize_is_refused_and_the_session_goes_on(session: WireSession) -> None:
    with anyio.fail_after(30):
        reply = await session.request("initialize", {**INITIALIZE_PARAMS, "protocolVersion": "2025-06-18"})
        assert reply["error"]["code"] == INVALID_REQUEST, reply
        await still_works(session)


async def test_a_duplicate_id_while_the_first_request_runs_is_refused_and_the_first_is_answered(
    session: WireSession,
) -> None:
    slow = {"name": "execute_js", "arguments": {"code": "await new Promise(r => setTimeout(r, 300)); 'first'"}}
    with anyio.fail_after(30):
        request_id = await session.submit("tools/call", slow)
        await session.submit("tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}}, request_id=request_id)
        refusal = await session.reply(request_id, 1)
        assert refusal["error"]["code"] == INVALID_REQUEST, refusal
        answer = await session.reply(request_id, 2)
        assert answer["result"]["structuredContent"]["result"] == "first"
        await still_works(session)
        assert len(session.replies[request_id]) == 2


async def test_an_id_may_be_reused_once_its_request_was_answered(session: WireSession) -> None:
    with anyio.fail_after(30):
        request_id = await session.submit("tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}})
        first = await session.reply(request_id, 1)
        await session.submit("tools/call", {"name": "add", "arguments": {"a": 2, "b": 2}}, request_id=request_id)
        second = await session.reply(request_id, 2)
        assert [first["result"]["structuredContent"]["result"], second["result"]["structuredContent"]["result"]] == [
            "2",
            "4",
        ]


async def test_javascript_output_with_lone_surrogates_does_not_break_the_stream(session: WireSession) -> None:
    # Splitting an emoji by UTF-16 code unit is an easy way to end up with halves of a surrogate pair.
    code = "const halves = '\\u{1F600}'.split(''); console.log(halves[0]); ({[halves[1]]: halves})"
    with anyio.fail_after(30):
        reply = await session.call("execute_js", {"code": code})
        result = reply["result"]
        assert result["isError"] is False, result
        assert "\ufffd" in result["structuredContent"]["stdout"]
        await still_works(session)


async def test_nan_in_execute_js_input_is_an_argument_error(session: WireSession) -> None:
    line = (
        b'{"jsonrpc": "2.0", "id": "nan", "method": "tools/call", '
        b'"params": {"name": "execute_js", "arguments": {"code": "input", "input": [NaN, Infinity]}}}'
    )
    with anyio.fail_after(30):
        await session.send_line(line)
        result = (await session.reply("nan"))["result"]
        assert result["isError"] is True
        assert "internal error" not in result["content"][0]["text"]
        assert result["structuredContent"]["error"]["kind"] == "arguments"
        await still_works(session)


async def test_requests_before_initialize_are_refused_except_ping_and_the_server_then_initializes() -> None:
    # The spec asks clients to send nothing but ping before initialize and leaves the server's answer open;
    # the SDK refuses such requests with INVALID_PARAMS (-32602) and answers ping.
    async with open_session(initialize=False) as session:
        with anyio.fail_after(60):
            early = await session.request("tools/list")
            assert early["error"]["code"] == INVALID_PARAMS
            early_call = await session.call("add", {"a": 1, "b": 2})
            assert early_call["error"]["code"] == INVALID_PARAMS
            assert (await session.request("ping"))["result"] == {}
            init = await session.initialize()
            assert init["result"]["protocolVersion"] == INITIALIZE_PARAMS["protocolVersion"]
            listed = await session.request("tools/list")
            assert {tool["name"] for tool in listed["result"]["tools"]} == {"add", "divide", "date_diff", "execute_js"}
            await still_works(session)
