"""The data folder through the MCP client: the files argument of execute_js, resources, caps, and its absence."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import random
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from sandbox_server import build_server
from sandbox_server.data.resources import uri_of

from ..conftest import make_settings
from ..datafolders import hostile_folder, snapshot

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with hostile_folder(tmp_path_factory.mktemp("folder")) as folder:
        (folder / "bad.txt").write_bytes(b"ok \xff\xfe not utf-8")
        (folder / "broken.json").write_text('{"a": ')
        (folder / "ragged.csv").write_text('a,b,c\n1,2\n"x, y",3,4,5\n\n"multi\nline",,\n')
        (folder / "bom.csv").write_bytes("\ufeffk,v\n1,2\n".encode())
        (folder / "astral.csv").write_text("emoji,n\n\U0001f600,1\n\u00e9,2\n")
        (folder / "report[1].txt").write_text("bracketed name\n")
        yield folder


@pytest.fixture(scope="module")
async def data_client(data: Path) -> AsyncIterator[Client]:
    async with Client(build_server(make_settings(data_dir=data)), mode="legacy") as connected:
        yield connected


async def run_files(client: Client, code: str, files: list[Any]) -> tuple[str, dict[str, Any], bool]:
    with anyio.fail_after(60):
        result = await client.call_tool("execute_js", {"code": code, "files": files})
    assert result.structured_content is not None
    return result.content[0].text, result.structured_content, bool(result.is_error)  # type: ignore[union-attr]


async def test_csv_rows_aggregate_by_header_name(data_client: Client) -> None:
    code = "const t = {}; for (const r of files['sales.csv'].rows) t[r.category] = (t[r.category] || 0) + +r.amount; t"
    _, structured, is_error = await run_files(data_client, code, ["sales.csv"])
    assert not is_error, structured
    assert structured["result"] == {"food": 19.75, "rent": 800}


async def test_every_form_of_a_file_matches_what_python_reads(data_client: Client, data: Path) -> None:
    code = """({
      text: files['sales.csv'].text,
      records: files['sales.csv'].records,
      header: files['sales.csv'].header,
      tsv: files['people.tsv'].rows,
      json: files['reports/2025.json'].json,
      notes: files['notes.txt'].text,
      meta: [files['sales.csv'].name, files['sales.csv'].size, files['sales.csv'].type, files['sales.csv'].format],
    })"""
    files = ["sales.csv", "people.tsv", "reports/2025.json", "notes.txt"]
    _, structured, is_error = await run_files(data_client, code, files)
    assert not is_error, structured
    result = structured["result"]
    sales = (data / "sales.csv").read_text()
    assert result["text"] == sales
    assert result["records"] == list(csv.reader(io.StringIO(sales)))
    assert result["header"] == ["date", "category", "amount"]
    assert result["tsv"] == [{"name": "Ada", "age": "36"}, {"name": "Alan", "age": "41"}]
    assert result["json"] == {"total": 3, "items": [1, 2]}
    assert result["notes"] == (data / "notes.txt").read_text()
    assert result["meta"] == ["sales.csv", len(sales.encode()), "text/csv", "csv"]


async def test_ragged_quoted_and_multiline_csv_follows_the_csv_module(data_client: Client, data: Path) -> None:
    _, structured, is_error = await run_files(
        data_client, "[files['ragged.csv'].records, files['ragged.csv'].rows]", ["ragged.csv"]
    )
    assert not is_error, structured
    records, rows = structured["result"]
    expected = [record for record in csv.reader(io.StringIO((data / "ragged.csv").read_text(), newline="")) if record]
    assert records == expected
    assert rows == [
        {"a": "1", "b": "2", "c": None},
        {"a": "x, y", "b": "3", "c": "4"},
        {"a": "multi\nline", "b": "", "c": ""},
    ]


async def test_a_byte_order_mark_is_not_part_of_the_first_column(data_client: Client) -> None:
    _, structured, _ = await run_files(data_client, "files['bom.csv'].rows", ["bom.csv"])
    assert structured["result"] == [{"k": "1", "v": "2"}]


async def test_astral_characters_do_not_shift_the_pieces_of_later_files(data_client: Client) -> None:
    code = "[files['astral.csv'].rows, files['notes.txt'].text, files['sales.csv'].header]"
    _, structured, is_error = await run_files(data_client, code, ["astral.csv", "notes.txt", "sales.csv"])
    assert not is_error, structured
    rows, notes, header = structured["result"]
    assert rows == [{"emoji": "\U0001f600", "n": "1"}, {"emoji": "\u00e9", "n": "2"}]
    assert notes == "caf\u00e9 \U0001f600 notes\n"
    assert header == ["date", "category", "amount"]


async def test_bytes_come_as_a_uint8array_on_request(data_client: Client, data: Path) -> None:
    code = "const b = files['blob.bin'].bytes; [b instanceof Uint8Array, Array.from(b), 'text' in files['blob.bin']]"
    _, structured, is_error = await run_files(data_client, code, [{"path": "blob.bin", "as": "bytes"}])
    assert not is_error, structured
    assert structured["result"] == [True, list((data / "blob.bin").read_bytes()), False]


async def test_as_forces_a_format_regardless_of_the_extension(data_client: Client) -> None:
    code = "[files['notes.txt'].format, 'records' in files['sales.csv'], files['people.tsv'].records[1]]"
    files = [{"path": "sales.csv", "as": "text"}, {"path": "people.tsv", "as": "tsv"}, "notes.txt"]
    _, structured, _ = await run_files(data_client, code, files)
    assert structured["result"] == ["text", False, ["Ada", "36"]]


async def test_patterns_name_every_matching_file_once(data_client: Client) -> None:
    code = "Object.keys(files)"
    _, structured, is_error = await run_files(data_client, code, ["reports/**", "**/*.json", "sales.csv", "*.csv"])
    assert not is_error, structured
    assert structured["result"] == [
        "reports/2025.json",
        "reports/deep/more.json",
        "broken.json",
        "sales.csv",
        "astral.csv",
        "bom.csv",
        "link-in.csv",
        "ragged.csv",
    ]


async def test_a_file_whose_name_has_pattern_characters_is_named_as_is(data_client: Client) -> None:
    _, structured, is_error = await run_files(data_client, "Object.keys(files)", ["report[1].txt", "report?1?.txt"])
    assert not is_error, structured
    assert structured["result"] == ["report[1].txt"]


async def test_forms_are_parsed_on_first_access_and_then_kept(data_client: Client) -> None:
    code = """
      const f = files['sales.csv'];
      const before = typeof Object.getOwnPropertyDescriptor(f, 'rows').get;
      const first = f.rows;
      [before, typeof Object.getOwnPropertyDescriptor(f, 'rows').get, first === f.rows, Object.keys(f)]
    """
    _, structured, _ = await run_files(data_client, code, ["sales.csv"])
    assert structured["result"] == ["function", "undefined", True, ["name", "size", "type", "format"]]


async def test_replaced_globals_do_not_change_what_files_returns(data_client: Client) -> None:
    code = (
        "JSON.parse = () => 'forged'; String.prototype.slice = () => 'x'; Uint8Array.fromBase64 = () => 'forged';"
        "[files['reports/2025.json'].json.total, files['sales.csv'].records.length, files['blob.bin'].bytes.length]"
    )
    files = ["reports/2025.json", "sales.csv", {"path": "blob.bin", "as": "bytes"}]
    _, structured, _ = await run_files(data_client, code, files)
    assert structured["result"] == [3, 4, 4]


async def test_invalid_json_fails_on_access_with_the_file_name(data_client: Client) -> None:
    _, structured, is_error = await run_files(data_client, "files['broken.json'].json", ["broken.json"])
    assert is_error
    assert structured["error"]["name"] == "SyntaxError"
    assert 'files["broken.json"].json: the file is not valid JSON' in structured["error"]["message"]
    _, fine, _ = await run_files(data_client, "files['broken.json'].text", ["broken.json"])
    assert fine["result"] == '{"a": '


async def test_undecodable_text_is_an_argument_error_that_suggests_bytes(data_client: Client) -> None:
    text, structured, is_error = await run_files(data_client, "1", ["bad.txt"])
    assert is_error
    assert structured["error"]["kind"] == "arguments"
    assert "'bad.txt' is not UTF-8 text (byte 0xff at offset 3" in text
    assert '"as": "bytes"' in text


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("../outside/secret.txt", "is not inside the data folder", id="dot-dot"),
        pytest.param("link-out", "is not inside the data folder", id="symlink-out"),
        pytest.param("link-dir-out/*", "matches no file", id="pattern-through-symlinked-folder"),
        pytest.param("pipe", "not a regular file", id="fifo"),
        pytest.param("sock", "not a regular file", id="socket"),
        pytest.param(".env", "hidden files", id="dotfile"),
        pytest.param("/etc/passwd", "is not inside the data folder", id="absolute"),
        pytest.param("SALES.CSV", "no file", id="case"),
        pytest.param("nothing/*.csv", "matches no file", id="empty-pattern"),
    ],
)
async def test_refused_names_are_argument_errors(data_client: Client, name: str, reason: str) -> None:
    text, structured, is_error = await run_files(data_client, "typeof files", [name])
    assert is_error
    assert structured["error"]["kind"] == "arguments"
    assert reason in text
    assert "outside the folder" not in text


async def test_the_folder_is_unchanged_by_calls(data_client: Client, data: Path) -> None:
    before = snapshot(data)
    await run_files(data_client, "files['sales.csv'].rows.length", ["*.csv", "reports/**"])
    await run_files(data_client, "1", ["pipe"])
    await data_client.list_resources()
    await data_client.read_resource(uri_of("sales.csv"))
    assert snapshot(data) == before


async def test_the_tool_stays_read_only_and_closed_world(data_client: Client) -> None:
    tool = next(tool for tool in (await data_client.list_tools()).tools if tool.name == "execute_js")
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.open_world_hint is False
    assert "files" in tool.input_schema["properties"]
    assert "files['sales.csv'].rows" in (tool.description or "")


async def test_without_files_the_global_does_not_exist(data_client: Client) -> None:
    result = await data_client.call_tool("execute_js", {"code": "'files' in globalThis"})
    assert result.structured_content is not None
    assert result.structured_content["result"] is False


# -- caps -------------------------------------------------------------------------------------------------------------


async def test_caps_on_count_and_bytes_are_argument_errors_naming_them(tmp_path: Path) -> None:
    for index in range(4):
        (tmp_path / f"f{index}.txt").write_text("x" * 100)
    settings = make_settings(data_dir=tmp_path, max_files=3, max_files_bytes=250)
    async with Client(build_server(settings), mode="legacy") as client:
        text, structured, is_error = await run_files(client, "1", ["*.txt"])
        assert is_error
        assert structured["error"]["kind"] == "arguments"
        assert "at most 3 files" in text and "max_files" in text
        text, _, is_error = await run_files(client, "1", ["f0.txt", "f1.txt", "f2.txt"])
        assert is_error
        assert "files total 300 bytes" in text and "at most 250 bytes" in text and "max_files_bytes" in text
        _, structured, is_error = await run_files(client, "files['f0.txt'].text.length", ["f0.txt", "f1.txt"])
        assert not is_error
        assert structured["result"] == 100


async def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    (tmp_path / "huge.csv").touch()
    os.truncate(tmp_path / "huge.csv", 50 * 1024 * 1024)  # sparse: 50 MB as far as stat is concerned
    async with Client(build_server(make_settings(data_dir=tmp_path)), mode="legacy") as client:
        text, structured, is_error = await run_files(client, "1", ["huge.csv"])
    assert is_error
    assert structured["error"]["kind"] == "arguments"
    assert f"files total {50 * 1024 * 1024} bytes" in text
    assert "max_files_bytes" in text


async def test_a_5_mb_csv_aggregates_within_the_default_limits(tmp_path: Path) -> None:
    generator = random.Random(5)
    totals: dict[str, float] = {}
    lines = ["date,category,amount"]
    size = 0
    while size < 5_000_000:
        category = generator.choice(["food", "rent", "travel", "books"])
        cents = generator.randint(1, 99_999)
        totals[category] = totals.get(category, 0) + cents
        line = f"2025-{generator.randint(1, 12):02d}-{generator.randint(1, 28):02d},{category},{cents / 100}"
        lines.append(line)
        size += len(line) + 1
    (tmp_path / "bank.csv").write_text("\n".join(lines) + "\n")
    code = """
      const cents = {};
      for (const r of files['bank.csv'].rows) cents[r.category] = (cents[r.category] || 0) + Math.round(r.amount * 100);
      cents
    """
    async with Client(build_server(make_settings(data_dir=tmp_path)), mode="legacy") as client:
        _, structured, is_error = await run_files(client, code, ["bank.csv"])
    assert not is_error, structured.get("error")
    assert structured["result"] == totals


# -- resources --------------------------------------------------------------------------------------------------------


async def test_resources_list_the_visible_files_with_uri_type_and_size(data_client: Client, data: Path) -> None:
    listed = await data_client.list_resources()
    by_name = {resource.name: resource for resource in listed.resources}
    assert set(by_name) == {
        "astral.csv",
        "bad.txt",
        "blob.bin",
        "bom.csv",
        "broken.json",
        "link-in.csv",
        "notes.txt",
        "people.tsv",
        "ragged.csv",
        "report[1].txt",
        "reports/2025.json",
        "reports/deep/more.json",
        "sales.csv",
    }
    sales = by_name["sales.csv"]
    assert sales.uri == "sandbox-data:///sales.csv"
    assert sales.mime_type == "text/csv"
    assert sales.size == (data / "sales.csv").stat().st_size
    assert str(data) not in json.dumps(listed.model_dump(mode="json"))


async def test_resources_read_text_and_blobs(data_client: Client, data: Path) -> None:
    text = await data_client.read_resource("sandbox-data:///reports/2025.json")
    assert text.contents[0].text == (data / "reports" / "2025.json").read_text()  # type: ignore[union-attr]
    blob = await data_client.read_resource("sandbox-data:///blob.bin")
    assert base64.b64decode(blob.contents[0].blob) == (data / "blob.bin").read_bytes()  # type: ignore[union-attr]
    assert blob.contents[0].mime_type == "application/octet-stream"


@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        pytest.param("sandbox-data:///../outside/secret.txt", "is not inside the data folder", id="dot-dot"),
        pytest.param(
            "sandbox-data:///%2E%2E/outside/secret.txt", "is not inside the data folder", id="encoded-dot-dot"
        ),
        pytest.param("sandbox-data:///link-out", "is not inside the data folder", id="symlink-out"),
        pytest.param("sandbox-data:///.env", "hidden files", id="dotfile"),
        pytest.param("sandbox-data:///pipe", "not a regular file", id="fifo"),
        pytest.param("sandbox-data:///sales.csv%00.txt", "control character", id="nul"),
        pytest.param("sandbox-data:///missing.csv", "no file", id="missing"),
        pytest.param("file:///etc/passwd", "Unknown resource URI", id="other-scheme"),
        pytest.param("sandbox-data://host/sales.csv", "Unknown resource URI", id="authority"),
    ],
)
async def test_resources_read_refuses_what_execute_js_refuses(data_client: Client, uri: str, reason: str) -> None:
    with pytest.raises(MCPError) as refused:
        await data_client.read_resource(uri)
    assert reason in str(refused.value)


async def test_resources_are_paginated_and_reads_are_capped(tmp_path: Path) -> None:
    for index in range(230):
        (tmp_path / f"n{index:03d}.txt").write_text(str(index))
    (tmp_path / "large.txt").write_text("y" * 5000)
    async with Client(build_server(make_settings(data_dir=tmp_path, max_resource_bytes=4096)), mode="legacy") as client:
        names: list[str] = []
        cursor: str | None = None
        pages = 0
        while True:
            page = await client.list_resources(cursor=cursor, cache_mode="bypass")
            names.extend(resource.name for resource in page.resources)
            pages += 1
            cursor = page.next_cursor
            if not cursor:
                break
        assert pages == 3
        assert names == sorted(names)
        assert len(names) == len(set(names)) == 231
        with pytest.raises(MCPError, match="at most 4096 bytes") as refused:
            await client.read_resource(uri_of("large.txt"))
        assert "max_resource_bytes" in str(refused.value)
        with pytest.raises(MCPError, match="Invalid cursor"):
            await client.list_resources(cursor="%%%not-base64", cache_mode="bypass")


# -- without a data folder --------------------------------------------------------------------------------------------


async def test_without_a_data_folder_nothing_of_it_is_visible() -> None:
    # Its own server: the session-wide client fixture cannot be opened inside this module's fixture.
    async with Client(build_server(make_settings(workers=1)), mode="legacy") as client:
        capabilities = client.server_capabilities
        assert capabilities is not None
        assert capabilities.resources is None
        tool = next(tool for tool in (await client.list_tools()).tools if tool.name == "execute_js")
        assert "files" not in tool.input_schema["properties"]
        assert "data folder" not in (tool.description or "")
        result = await client.call_tool("execute_js", {"code": "1", "files": ["x.csv"]})
        assert result.is_error
        with pytest.raises(MCPError):
            await client.list_resources()


def test_a_payload_too_large_for_a_worker_frame_is_an_argument_error() -> None:
    from sandbox_server.data.files import check_frame_room
    from sandbox_server.errors import ArgumentError
    from sandbox_server.sandbox.protocol import MAX_FRAME_BYTES

    check_frame_room("x" * 1000)
    # Control characters take six bytes each once escaped: this payload fits as text but not in a frame.
    with pytest.raises(ArgumentError, match="once packed for the JavaScript worker"):
        check_frame_room("\x01" * (MAX_FRAME_BYTES // 6 + 1), reserved=0)


async def test_the_instructions_mention_the_folder_only_when_there_is_one(data_client: Client) -> None:
    assert "`files`" in (data_client.instructions or "")
    async with Client(build_server(make_settings(workers=1)), mode="legacy") as plain:
        assert plain.instructions
        assert "data folder" not in plain.instructions


async def test_files_is_the_only_global_a_call_with_files_adds(data_client: Client) -> None:
    code = "Object.getOwnPropertyNames(globalThis).sort()"
    plain = await data_client.call_tool("execute_js", {"code": code})
    _, with_files, _ = await run_files(data_client, code, ["sales.csv"])
    assert plain.structured_content is not None
    assert sorted(set(with_files["result"]) - set(plain.structured_content["result"])) == ["files"]
    assert set(plain.structured_content["result"]) <= set(with_files["result"])


def test_an_empty_data_dir_setting_means_no_folder_not_the_current_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox_server import Settings

    monkeypatch.setenv("SANDBOX_DATA_DIR", "")
    assert Settings().data_dir is None
    monkeypatch.setenv("SANDBOX_DATA_DIR", "  ")
    assert Settings().data_dir is None


async def test_the_catalogue_with_a_data_folder_still_fits_the_token_budget(data_client: Client) -> None:
    from ..tools.test_catalogue_budget import CATALOGUE_BUDGET, tokens

    assert tokens((await data_client.list_tools()).tools) <= CATALOGUE_BUDGET


# -- the payload, built without holding every row ---------------------------------------------------------------------


def _unpacked(payload: str) -> dict[str, dict[str, Any]]:
    """Every file of a payload with each of its pieces, sliced by UTF-16 units as the runtime slices them."""
    manifest_line, body = payload.split("\n", 1)
    units = body.encode("utf-16-le", "surrogatepass")
    files: dict[str, dict[str, Any]] = {}
    for spec in json.loads(manifest_line):
        pieces = {
            form: units[2 * spec[form][0] : 2 * spec[form][1]].decode("utf-16-le", "surrogatepass")
            for form in ("text", "records", "base64")
            if form in spec
        }
        files[spec["name"]] = {"spec": spec, **pieces}
    return files


CSV_SHAPES = [
    pytest.param("a,b\n1,2\n3,4\n", id="plain"),
    pytest.param("a,b\r\n1,2\r\n3,4", id="crlf-without-a-last-newline"),
    pytest.param("a,b\r1,2\r3,4\r", id="carriage-returns-only"),
    pytest.param('a,b\n"x\r\ny\nz",2\n\n\n3,"q""uote"\n', id="quoted-line-breaks-and-blank-lines"),
    pytest.param("\ufeffk,v\n\U0001f600,\u00e9\n", id="bom-and-astral"),
    pytest.param("".join(f'{n},"multi\nline {n}",\u00e9\r\n' for n in range(5_000)), id="many-rows"),
    pytest.param("a,b\r\n" + "y" * 50 + "\r\n1,2\r" + "z" * 30 + "\n\n" + "w" * 40, id="long-lines"),
    pytest.param("a,b\r" + "y" * 12 + "\r\n" + "v" * 40 + "\r", id="long-line-after-a-split-line-end"),
    pytest.param("", id="empty"),
]


@pytest.mark.parametrize("text", CSV_SHAPES)
@pytest.mark.parametrize("block", [7, 1 << 20])
def test_csv_records_are_exactly_what_the_csv_module_reads_whatever_the_block_boundaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, block: int
) -> None:
    import sandbox_server.data.files as datafiles
    from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
    from sandbox_server.data.folder import DataFolder

    monkeypatch.setattr(datafiles, "_CSV_BLOCK_CHARS", block)
    (tmp_path / "t.csv").write_bytes(text.encode("utf-8"))
    (tmp_path / "after.txt").write_text("\U0001f600 after")
    folder = DataFolder(tmp_path)
    selected = select(folder, [FileRequest("t.csv"), FileRequest("after.txt")], FilesLimits(10, 1 << 24))
    files = _unpacked(build_payload(folder, selected, 1 << 24))
    plain = text.removeprefix("\ufeff")
    assert files["t.csv"]["text"] == plain
    assert json.loads(files["t.csv"]["records"]) == [row for row in csv.reader(io.StringIO(plain, newline="")) if row]
    assert files["after.txt"]["text"] == "\U0001f600 after"


def test_a_csv_error_past_the_first_block_names_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox_server.data.files as datafiles
    from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
    from sandbox_server.data.folder import DataFolder
    from sandbox_server.errors import ArgumentError

    monkeypatch.setattr(datafiles, "_CSV_BLOCK_CHARS", 16)
    (tmp_path / "long.csv").write_text("a,b\n" * 30 + "x," + "y" * 40 + "\n" + "1,2\n" * 3)
    folder = DataFolder(tmp_path)
    selected = select(folder, [FileRequest("long.csv")], FilesLimits(10, 1 << 20))
    # The csv module's own limit is the one error a well-formed line can still raise; lower it for a moment.
    previous = csv.field_size_limit(20)
    try:
        with pytest.raises(ArgumentError, match=re.escape("could not be parsed as CSV (line 31: field larger")):
            build_payload(folder, selected, 1 << 20)
    finally:
        csv.field_size_limit(previous)


def test_bytes_travel_as_base64_in_pieces_that_join_to_the_whole_file(tmp_path: Path) -> None:
    from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
    from sandbox_server.data.folder import DataFolder

    data = random.Random(3).randbytes(5 * 1_048_576 + 7)
    (tmp_path / "blob.bin").write_bytes(data)
    folder = DataFolder(tmp_path)
    selected = select(folder, [FileRequest("blob.bin", "bytes")], FilesLimits(10, 1 << 24))
    files = _unpacked(build_payload(folder, selected, 1 << 24))
    assert base64.b64decode(files["blob.bin"]["base64"], validate=True) == data


def test_building_a_payload_stops_when_asked_to(tmp_path: Path) -> None:
    from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
    from sandbox_server.data.folder import DataFolder, Interrupted

    (tmp_path / "rows.csv").write_text("a\n" * 100_000)
    folder = DataFolder(tmp_path)
    selected = select(folder, [FileRequest("rows.csv")], FilesLimits(10, 1 << 24))
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    with pytest.raises(Interrupted):
        build_payload(folder, selected, 1 << 24, stop=stop)
    assert asked == 4


def test_the_frame_room_is_counted_exactly_without_escaping_the_payload_at_once() -> None:
    from sandbox_server.data.files import check_frame_room
    from sandbox_server.errors import ArgumentError
    from sandbox_server.sandbox.protocol import MAX_FRAME_BYTES

    # Quotes take two bytes escaped: twice the room in characters fails, just under half fits.
    check_frame_room('"' * (MAX_FRAME_BYTES // 2 - 2), reserved=0)
    with pytest.raises(ArgumentError, match=f"take {MAX_FRAME_BYTES + 2} bytes"):
        check_frame_room('"' * (MAX_FRAME_BYTES // 2), reserved=0)
