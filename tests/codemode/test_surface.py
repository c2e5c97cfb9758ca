"""What code mode adds around the tool: the declarations as resources, the catalogue's size, the hint in
execute_js, tools that change while the server runs, and the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from sandbox_server.upstream import directory

from ..tools.test_catalogue_budget import CATALOGUE_BUDGET, CODE_MODE_BUDGET, count_tokens, tokens, visible
from .conftest import ROOT, CodeMode, code_mode, stdio_server, write_config

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def surface(upstream_dir: Path) -> AsyncIterator[CodeMode]:
    config = write_config(
        upstream_dir,
        {"records": stdio_server("records"), "writes": stdio_server("writes", sideEffects="confirm")},
        "surface.json",
    )
    async with code_mode(config) as connected:
        yield connected


async def test_each_servers_declarations_are_a_resource_and_match_describe(surface: CodeMode) -> None:
    listed = await surface.client.list_resources()
    uris = [str(resource.uri) for resource in listed.resources]
    assert uris == ["sandbox-tools:///records.d.ts", "sandbox-tools:///writes.d.ts"]
    read = await surface.client.read_resource("sandbox-tools:///writes.d.ts")
    text = read.contents[0].text  # type: ignore[union-attr]
    assert "declare function delete_record(args: { id: number }): Promise<string | object>;" in text
    assert text == await surface.value("await tools.$describe('writes')")


async def test_an_unknown_declaration_uri_is_an_error_naming_the_known_ones(surface: CodeMode) -> None:
    with pytest.raises(Exception, match=re.escape("sandbox-tools:///records.d.ts")):
        await surface.client.read_resource("sandbox-tools:///nope.d.ts")


async def test_the_catalogue_stays_within_its_budget_plus_25_tokens_per_tool_listed(surface: CodeMode) -> None:
    listed = (await surface.client.list_tools()).tools
    named = sum(len(surface.app.directory.exposed(u) or ()) for u in surface.app.upstreams)  # type: ignore[union-attr]
    assert named > 20  # records and writes together
    assert tokens(listed) <= CATALOGUE_BUDGET + 25 * named


@pytest.mark.parametrize(
    ("copies", "budget", "style"),
    [
        pytest.param(1, None, "signatures", id="small"),
        pytest.param(4, None, "signatures", id="many-short-signatures"),
        pytest.param(2, 500, "names", id="past-the-signature-budget"),
        pytest.param(4, 1_000, "counts", id="past-sixty-tools"),
    ],
)
async def test_the_description_lists_signatures_then_names_then_counts_as_the_catalogue_grows(
    upstream_dir: Path, copies: int, budget: int | None, style: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if budget is not None:  # one records server's signatures take about 850 characters
        monkeypatch.setattr(directory, "SIGNATURES_BUDGET_CHARS", budget)
    servers = {f"copy{i}": stdio_server("records") for i in range(copies)}
    async with code_mode(write_config(upstream_dir, servers, f"many{copies}.json")) as connected:
        tool = await connected.tool()
    description = tool.description or ""
    signature = "  get_record({id: number}): {record: RecordType}"
    assert (signature in description) == (style == "signatures")
    assert ("tools.copy0: list_records, get_record, " in description) == (style == "names")
    assert ("tools.copy0: 18 tools" in description) == (style == "counts")
    assert ("tools.copy1: the same tools as tools.copy0" in description) == (copies > 1 and style != "counts")
    assert "refused by the user's policy: add_tool" in description
    listing = description[description.index("\ntools.copy0") :]
    assert len(listing) <= directory.SIGNATURES_BUDGET_CHARS
    assert count_tokens(visible(tool)) - count_tokens(listing) <= CODE_MODE_BUDGET


async def test_execute_js_hints_at_the_tool_that_has_tools(surface: CodeMode) -> None:
    result = await surface.client.call_tool("execute_js", {"code": "await tools.records.list_records()"})
    assert result.structured_content is not None
    assert "execute_js_with_tools" in result.structured_content["error"]["hint"]


async def test_a_tool_added_upstream_is_announced_listed_and_callable(upstream_dir: Path) -> None:
    config = write_config(upstream_dir, {"records": stdio_server("records", sideEffects="allow")}, "changing.json")
    announced = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            announced.set()

    async with code_mode(config, message_handler=on_message) as connected:
        assert "extra_1" not in ((await connected.tool()).description or "")
        assert await connected.value("await tools.records.add_tool()") == "added extra_1"
        with anyio.fail_after(10):
            await announced.wait()
        assert "extra_1" in ((await connected.tool()).description or "")
        assert await connected.value("await tools.records.extra_1()") == "extra_1 ran"


async def test_on_the_current_revision_a_tool_added_upstream_reaches_a_listen_stream(upstream_dir: Path) -> None:
    config = write_config(upstream_dir, {"records": stdio_server("records", sideEffects="allow")}, "listening.json")
    async with code_mode(config, client_mode="auto") as connected:
        tools = connected.client.server_capabilities.tools  # type: ignore[union-attr]
        assert tools is not None and tools.list_changed is True
        with anyio.fail_after(20):
            async with connected.client.listen(tools_list_changed=True) as changes:
                assert await connected.value("await tools.records.add_tool()") == "added extra_1"
                event = await changes.__anext__()
        assert type(event).__name__ == "ToolsListChanged"
        assert "extra_1" in ((await connected.tool()).description or "")
        assert await connected.value("await tools.records.extra_1()") == "extra_1 ran"


def test_the_command_line_lists_upstream_tools_and_calls_through_them(upstream_dir: Path) -> None:
    config = write_config(
        upstream_dir,
        {"records": stdio_server("records"), "writes": stdio_server("writes", sideEffects="confirm")},
        "cli.json",
    )
    command = [sys.executable, "-m", "sandbox_server", "--upstream", str(config)]
    listed = subprocess.run(
        [*command, "upstream", "list", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    report = json.loads(listed.stdout)
    servers = {entry["server"]: entry for entry in report["servers"]}
    access = {tool["name"]: tool["access"] for tool in servers["writes"]["tools"]}
    assert access["delete_record"] == "confirm" and access["deleted"] == "call"
    assert report["annotations"]["destructiveHint"] is True
    code = "(await tools.records.list_records({ limit: 3 })).records.map((r) => r.name)"
    called = subprocess.run(
        [*command, "tools", "call", "execute_js_with_tools", "--args", json.dumps({"code": code})],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert called.returncode == 0, called.stderr
    assert called.stdout == 'Result: ["record-001","record-002","record-003"]\n'


def test_tools_list_shows_the_upstream_tools_as_the_code_calls_them(upstream_dir: Path) -> None:
    config = write_config(
        upstream_dir,
        {"records": stdio_server("records"), "writes": stdio_server("writes", sideEffects="confirm")},
        "list.json",
    )
    listed = subprocess.run(
        [sys.executable, "-m", "sandbox_server", "--upstream", str(config), "tools", "list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    text = listed.stdout
    block = text[text.index("execute_js_with_tools:") :]
    assert "\n    tools.records:\n      type RecordType = {id: number, " in block
    assert "\n      list_records({limit?: number, " in block
    assert "\n      get_record({id: number}): {record: RecordType}" in block
    assert "\n      delete_record({id: number}): string | object (asks the user first)" in block
    head = text[: text.index("execute_js_with_tools:")]
    assert "tools.records" not in head, "only code mode's entry lists the upstream tools"


def test_an_upstream_file_that_is_not_json_stops_the_server_with_a_clear_message(upstream_dir: Path) -> None:
    bad = upstream_dir / "bad.json"
    bad.write_text('{"mcpServers": {"x": {"command": ', encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "sandbox_server", "--upstream", str(bad), "tools", "list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert ran.returncode == 2
    assert "not valid JSON" in ran.stderr and str(bad) in ran.stderr


def test_an_entry_the_server_cannot_use_is_listed_unavailable_and_the_others_work(upstream_dir: Path) -> None:
    odd = {
        "x": {"command": 3},
        "vs code": {"type": "http", "url": "https://example.com/mcp", "headers": {"K": "${input:key}"}},
        "records": {**stdio_server("records"), "someOtherClientKey": True},
    }
    config = write_config(upstream_dir, odd, "odd.json")
    ran = subprocess.run(
        [sys.executable, "-m", "sandbox_server", "--upstream", str(config), "upstream", "list", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    servers = {entry["server"]: entry for entry in json.loads(ran.stdout)["servers"]}
    assert servers["records"]["state"] == "ready" and servers["records"]["ignoredKeys"] == ["someOtherClientKey"]
    assert servers["x"]["state"] == "unavailable" and "'command' must be a string" in servers["x"]["reason"]
    assert servers["vs code"]["state"] == "unavailable" and "${input:key}" in servers["vs code"]["reason"]
    assert "cannot be used" in ran.stderr and "someOtherClientKey" in ran.stderr


async def test_a_server_that_failed_to_start_is_tried_again_when_code_calls_it(upstream_dir: Path) -> None:
    marker = upstream_dir / "flaky-started-once"
    script = f"test -f {marker} && exec {sys.executable} -m tests.upstream.servers.records; touch {marker}; exit 1"
    config = write_config(
        upstream_dir, {"flaky": {"command": "sh", "args": ["-c", script], "cwd": str(ROOT)}}, "flaky.json"
    )
    async with code_mode(config) as connected:
        assert "tools.flaky: unavailable (" in ((await connected.tool()).description or "")
        assert await connected.value("(await tools.flaky.list_records({ limit: 2 })).total") == 2
        assert "tools.flaky:\n  type RecordType = " in ((await connected.tool()).description or "")
