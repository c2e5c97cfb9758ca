"""execute_js_with_tools through the official MCP client, against real upstream servers over stdio: values, errors,
policy, consent, limits, discovery, and what the tool says about itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server

from ..conftest import REVISIONS, make_settings
from .conftest import CodeMode, User, code_mode, stdio_server, text_of, write_config

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module", params=REVISIONS)
async def mode(upstream_dir: Path, request: pytest.FixtureRequest) -> AsyncIterator[CodeMode]:
    config = write_config(
        upstream_dir,
        {
            "records": stdio_server("records"),
            "writes": stdio_server("writes", sideEffects="confirm"),
            "locked": stdio_server("writes"),
            "my-store": stdio_server("writes", sideEffects="allow", tools=["state", "set_*"]),
            "gone": stdio_server("broken", "--mode", "exit"),
        },
    )
    async with code_mode(config, User(), client_mode=request.param, tool_call_timeout_s=5.0) as connected:
        yield connected


async def test_without_upstream_servers_execute_js_is_alone_and_unchanged() -> None:
    async with Client(build_server(make_settings()), mode="legacy") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert "execute_js_with_tools" not in tools
    assert tools["execute_js"].annotations is not None
    assert tools["execute_js"].annotations.read_only_hint is True
    assert tools["execute_js"].annotations.open_world_hint is False


async def test_execute_js_keeps_its_pure_annotations_and_has_no_tools_global(mode: CodeMode) -> None:
    tools = {tool.name: tool for tool in (await mode.client.list_tools()).tools}
    annotations = tools["execute_js"].annotations
    assert annotations is not None and annotations.read_only_hint is True and annotations.open_world_hint is False
    result = await mode.client.call_tool("execute_js", {"code": "typeof tools"})
    assert result.structured_content is not None and result.structured_content["result"] == "undefined"


async def test_the_description_lists_servers_and_tools_and_unavailable_ones(mode: CodeMode) -> None:
    description = (await mode.tool()).description or ""
    assert "tools.records:\n  type RecordType = {id: number, name: string, " in description
    assert "\n  list_records({limit?: number, " in description
    assert "  get_record({id: number}): {record: RecordType}" in description
    assert (
        'tools["my-store"]:\n  set_flag({name: string, value: boolean}): string | object\n  state(): string | object'
        in description
    )
    assert "  delete_record({id: number}): string | object (asks the user first)" in description
    assert "refused by the user's policy: delete_record, create_record, touch, set_flag" in description
    assert "tools.gone: unavailable (the server exited during the MCP handshake)" in description
    assert "$search" in description and "$describe" in description


async def test_annotations_follow_what_the_code_can_call(mode: CodeMode) -> None:
    annotations = (await mode.tool()).annotations
    assert annotations is not None
    # writes (confirm) exposes delete_record, annotated destructive, and unannotated touch: neither read-only nor
    # idempotent; "gone" is unknown and refuses side effects, so it changes nothing.
    assert annotations.read_only_hint is False
    assert annotations.destructive_hint is True
    assert annotations.idempotent_hint is False
    assert annotations.open_world_hint is True


async def test_read_only_servers_alone_make_a_read_only_tool(upstream_dir: Path) -> None:
    config = write_config(
        upstream_dir, {"records": stdio_server("records"), "locked": stdio_server("writes")}, "readonly.json"
    )
    async with code_mode(config) as connected:
        annotations = (await connected.tool()).annotations
    assert annotations is not None
    assert (annotations.read_only_hint, annotations.destructive_hint, annotations.idempotent_hint) == (
        True,
        False,
        True,
    )
    assert annotations.open_world_hint is True


async def test_structured_content_is_the_value_and_promise_all_joins_calls(mode: CodeMode) -> None:
    value = await mode.value(
        """
        const { records } = await tools.records.list_records({ status: 'open', limit: 20 });
        const details = await Promise.all(records.map((r) => tools.records.get_record({ id: r.id })));
        ({ count: details.length, total: details.reduce((t, d) => t + d.record.amount, 0),
           first: details[0].record.details })
        """
    )
    assert value["count"] == 20
    assert value["first"] == "details of record-003"
    records = await mode.value("(await tools.records.list_records({ status: 'open', limit: 20 })).records")
    assert value["total"] == pytest.approx(sum(record["amount"] for record in records))


async def test_every_kind_of_result_comes_in_the_documented_shape_and_has_content(mode: CodeMode) -> None:
    value = await mode.value(
        """
        const structured = await tools.records.get_record({ id: 3 });
        const json = await tools.records.json_text();
        const text = await tools.records.search_text({ q: 'record-19' });
        const image = await tools.records.image();
        [structured, structured.content[0].type, JSON.parse(structured.content[0].text).record.id,
         Object.keys(structured),
         json, json.content[0].text, JSON.parse(json).items, `${json}` === json.content[0].text,
         typeof text, text.split('\\n').length, text.content[0].text === text,
         image.content[0].type, image.content[0].mimeType, typeof image.text]
        """
    )
    assert value[0]["record"]["id"] == 3 and value[1] == "text" and value[2] == 3
    assert value[3] == ["record"], "content is not one of the value's own enumerable keys"
    assert value[4] == {"ok": True, "items": [1, 2, 3]} and '"items"' in value[5] and value[6] == [1, 2, 3]
    assert value[7] is True
    assert value[8:11] == ["string", 10, True]
    assert value[11:] == ["image", "image/png", "string"]


async def test_a_tool_without_output_schema_is_declared_as_what_it_delivers_text_or_parsed_json(mode: CodeMode) -> None:
    description = (await mode.tool()).description or ""
    declared = {
        name: await mode.value(f"await tools.$describe('records.{name}')") for name in ("json_text", "search_text")
    }
    kinds = await mode.value(
        "[typeof (await tools.records.json_text()), typeof (await tools.records.search_text({ q: 'record-1' }))]"
    )
    assert kinds == ["object", "string"]  # one tool's JSON text arrives parsed, the other's text as a string
    for name, text in declared.items():  # and neither is declared as only one of the two
        assert "Promise<string | object>" in text, text
        line = description.split(f"\n  {name}(", 1)[1].split("\n", 1)[0]
        assert line.endswith("): string | object"), line


async def test_an_upstream_error_throws_a_tool_error_with_its_own_text(mode: CodeMode) -> None:
    value = await mode.value(
        """
        const seen = [];
        for (const call of [() => tools.records.fail({ message: 'quota exceeded for today' }),
                            () => tools.records.protocol_error()]) {
          try { await call(); seen.push('no error'); }
          catch (e) { seen.push([e instanceof ToolError, e.name, e.server, e.tool, e.code, e.message]); }
        }
        seen
        """
    )
    assert value[0] == [True, "ToolError", "records", "fail", "error", "quota exceeded for today"]
    assert value[1][:5] == [True, "ToolError", "records", "protocol_error", "protocol"]
    assert "protocol_error always answers with this error" in value[1][5]


async def test_an_uncaught_tool_error_fails_the_run_naming_the_tool(mode: CodeMode) -> None:
    result, structured = await mode.run("await tools.records.get_record({ id: 999 })")
    assert result.is_error is True
    assert structured["error"]["name"] == "ToolError"
    assert structured["error"]["message"] == "no record with id 999"
    assert structured["toolCalls"][0]["outcome"] == "error"


async def test_arguments_are_checked_against_the_input_schema_before_leaving_the_host(mode: CodeMode) -> None:
    result, structured = await mode.run("await tools.records.list_records({ limit: 0, colour: 'red' })")
    assert result.is_error is True
    message = structured["error"]["message"]
    assert "input schema of records.list_records" in message and "limit" in message
    assert structured["toolCalls"][0]["outcome"] == "invalid_arguments"


async def test_a_tool_that_breaks_its_output_schema_fails_instead_of_giving_wrong_data(mode: CodeMode) -> None:
    _, structured = await mode.run("await tools.records.bad_output()")
    assert structured["ok"] is False
    assert structured["toolCalls"][0]["outcome"] == "invalid_result"
    assert "does not match its own output schema" in structured["error"]["message"]


async def test_a_refused_tool_does_not_run_and_says_how_to_allow_it(mode: CodeMode) -> None:
    _, structured = await mode.run("await tools.locked.delete_record({ id: 7 })")
    assert structured["ok"] is False
    message = structured["error"]["message"]
    assert "sideEffects" in message and "refuse" in message
    assert structured["toolCalls"][0]["outcome"] == "refused"
    assert await mode.value("(await tools.locked.deleted()).ids") == []


async def test_a_hidden_tool_is_not_listed_and_cannot_be_called(mode: CodeMode) -> None:
    value = await mode.value(
        """
        let message;
        try { tools['my-store'].delete_record; } catch (e) { message = e.message; }
        [Object.keys(tools['my-store']), message]
        """
    )
    assert value[0] == ["set_flag", "state"]
    assert 'has no tool named "delete_record"' in value[1]


async def test_allow_runs_side_effects_without_asking(mode: CodeMode) -> None:
    assert mode.user is not None
    asked = len(mode.user.questions)
    value = await mode.value(
        "await tools['my-store'].set_flag({ name: 'done', value: true }); (await tools['my-store'].state()).flags"
    )
    assert value == {"done": True}
    assert len(mode.user.questions) == asked


async def test_confirm_asks_the_user_per_call_and_runs_only_what_was_accepted(mode: CodeMode) -> None:
    assert mode.user is not None
    user = mode.user
    user.answer, user.allow = "accept", True
    before = len(user.questions)
    await mode.value("await tools.writes.delete_record({ id: 41 })")
    assert len(user.questions) == before + 1
    question = user.questions[-1]
    assert isinstance(question, types.ElicitRequestFormParams)
    assert "delete_record" in question.message and "writes" in question.message and '"id": 41' in question.message
    assert "may delete or overwrite data" in question.message

    user.answer = "decline"
    _, structured = await mode.run("await tools.writes.delete_record({ id: 42 })")
    assert structured["ok"] is False and "declined" in structured["error"]["message"]
    assert structured["toolCalls"][0]["outcome"] == "declined"

    user.answer, user.allow = "accept", False  # the form sent back with its box unticked is no consent
    _, structured = await mode.run("await tools.writes.delete_record({ id: 43 })")
    assert structured["toolCalls"][0]["outcome"] == "declined"

    user.answer, user.allow = "accept", True
    assert await mode.value("(await tools.writes.deleted()).ids") == [41]
    assert len(user.questions) == before + 3  # reading `deleted` (read-only) asked nothing


async def test_confirm_without_elicitation_is_refused_saying_why(upstream_dir: Path) -> None:
    config = write_config(upstream_dir, {"writes": stdio_server("writes", sideEffects="confirm")}, "noelicit.json")
    async with code_mode(config) as connected:
        _, structured = await connected.run("await tools.writes.touch()")
        assert structured["ok"] is False
        assert "does not offer elicitation" in structured["error"]["message"]
        assert (await connected.value("(await tools.writes.state()).touched")) == 0


async def test_discovery_searches_and_describes_tools_in_typescript(mode: CodeMode) -> None:
    value = await mode.value(
        """
        const found = await tools.$search('record by id');
        const signature = await tools.$describe('records.get_record');
        [found[0], signature]
        """
    )
    assert value[0]["name"] == "get_record" and value[0]["server"] == "records"
    assert "get_record" in value[1] and "id: number" in value[1]


async def test_unknown_servers_and_tools_fail_with_the_names_that_exist(mode: CodeMode) -> None:
    _, structured = await mode.run("tools.record.list_records()")
    assert 'there is no server named "record"' in structured["error"]["message"]
    _, structured = await mode.run("tools.records.list_record()")
    message = structured["error"]["message"]
    assert 'has no tool named "list_record"' in message and "list_records" in message


async def test_every_tool_error_has_a_code_saying_what_happened(mode: CodeMode) -> None:
    value = await mode.value(
        """
        const codes = [];
        for (const attempt of [
          () => tools.record.list_records(),
          () => tools.records.list_record(),
          () => tools.records.fail({ message: 'no' }),
          () => tools.records.get_record({ id: 'x' }),
          () => tools.$describe('records.nothing'),
        ]) {
          try { await attempt(); codes.push('resolved'); } catch (e) { codes.push([e.name, e.code]); }
        }
        codes
        """
    )
    assert value == [
        ["ToolError", "unknown_server"],
        ["ToolError", "unknown_tool"],
        ["ToolError", "error"],
        ["ToolError", "invalid_arguments"],
        ["ToolError", "unknown_tool"],
    ]


async def test_an_unavailable_server_fails_its_calls_and_leaves_the_others_working(mode: CodeMode) -> None:
    value = await mode.value(
        """
        let message;
        try { await tools.gone.anything(); } catch (e) { message = [e.name, e.code, e.message]; }
        [message, (await tools.records.list_records({ limit: 1 })).total]
        """
    )
    assert value[0][0] == "ToolError" and value[0][1] == "unavailable"
    assert value[1] == 1


async def test_the_structured_result_lists_every_call_with_its_outcome(mode: CodeMode) -> None:
    result, structured = await mode.run(
        """
        await tools.records.get_record({ id: 1 });
        try { await tools.records.fail({ message: 'no' }); } catch {}
        'done'
        """
    )
    calls = structured["toolCalls"]
    assert [(c["server"], c["tool"], c["outcome"]) for c in calls] == [
        ("records", "get_record", "ok"),
        ("records", "fail", "error"),
    ]
    assert all(c["durationMs"] >= 0 and c["argumentBytes"] > 0 for c in calls)
    assert "Tool calls (2): records.get_record ok, records.fail error" in text_of(result)


async def test_progress_reports_each_upstream_call(mode: CodeMode) -> None:
    messages: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")

    await mode.client.call_tool(
        "execute_js_with_tools",
        {"code": "await tools.records.get_record({ id: 2 }); await tools.records.json_text()"},
        progress_callback=on_progress,
    )
    assert any(m.startswith("called records.get_record: ok") for m in messages), messages
    assert any(m.startswith("called records.json_text: ok") for m in messages), messages
