"""Code written for Node, a browser or a module system gets an error that says what to use instead."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from .conftest import make_settings
from .test_execute_js import run_js

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    async with Client(build_server(app=App.create(make_settings(workers=1))), mode="legacy") as connected:
        yield connected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("const { createHash } = require('crypto');\ncreateHash('sha256').update('abc').digest('hex')",
                     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", id="require"),
        pytest.param("import { createHash } from 'node:crypto';\ncreateHash('md5').update('a').digest('hex')",
                     "0cc175b9c0f1b6a831c399e269772661", id="static-import"),
        pytest.param("const path = await import('path'); path.join('a', '..', 'b', 'c.txt')", "b/c.txt",
                     id="dynamic-import"),
        pytest.param("process.stdout.write('hi'); 1", 1, id="process-stdout"),
        pytest.param("const n = Number(process.argv[2] ?? 21); n * 2", 42, id="process-argv"),
        pytest.param("Buffer.from('hello').toString('base64')", "aGVsbG8=", id="buffer"),
        pytest.param("export const x = 1;\nx + 1", 2, id="export"),
        pytest.param("export default function double(n) { return n * 2; }\ndouble(4)", 8, id="export-default"),
        pytest.param("const path = require('path');\npath.join(__dirname, 'data.csv')", "/data.csv", id="dirname"),
    ],
)  # fmt: skip
async def test_node_habits_run_as_node_runs_them(client: Client, code: str, expected: object) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == expected


@pytest.mark.parametrize(
    ("code", "error_name", "advice"),
    [
        pytest.param("const { execSync } = require('child_process'); execSync('ls')", "Error", "input",
                     id="child-process"),
        pytest.param("import http from 'node:http';\nhttp.get('http://x')", "Error", "network", id="http"),
        pytest.param("const m = await import('lodash'); m", "Error", "inline", id="package"),
        pytest.param("import { sum } from 'lodash';\nsum([1])", "Error", "inline", id="named-import"),
        pytest.param("process.env.API_KEY", "Error", "input", id="process-env"),
        pytest.param("const r = await fetch('https://example.com'); await r.text()", "ReferenceError", "input",
                     id="fetch"),
        pytest.param("const x = new XMLHttpRequest(); x", "ReferenceError", "input", id="xhr"),
        pytest.param("document.querySelector('p')", "ReferenceError", "console.log", id="document"),
        pytest.param("fs.promises.readFile('a.csv', 'utf8')", "ReferenceError", "require('fs')", id="fs-as-global"),
        pytest.param("files['a.csv'].text", "ReferenceError", "input", id="files-without-folder"),
    ],
)  # fmt: skip
async def test_habits_that_cannot_run_here_get_an_error_that_says_what_to_use_instead(
    client: Client, code: str, error_name: str, advice: str
) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is True
    error = structured["error"]
    assert error["name"] == error_name, text
    assert advice in (error.get("hint", "") + error["message"]), text


async def test_an_ordinary_reference_error_gets_no_hint(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "undefinedVariable + 1")
    assert is_error is True
    assert "hint" not in structured["error"]


@pytest.mark.parametrize(
    ("message", "with_folder", "without_folder"),
    [
        ("fetch is not defined", "`files`", "`input`"),
        ("files is not defined", '"files": ["sales.csv"]', "no data folder"),
        ("XMLHttpRequest is not defined", "readFileSync", "`input`"),
    ],
)
def test_every_hint_about_data_names_the_folder_when_there_is_one(
    message: str, with_folder: str, without_folder: str
) -> None:
    from sandbox_server.tools.hints import hint_for

    error = {"name": "ReferenceError", "message": message}
    assert with_folder in (hint_for(error, "", data_folder=True) or "")
    assert without_folder in (hint_for(error, "") or "")
    assert "`files`" not in (hint_for(error, "") or "").replace("no global `files`", "")


async def test_a_type_argument_read_as_a_comparison_gets_a_hint_that_names_the_type(client: Client) -> None:
    result = await client.call_tool("execute_js", {"code": "const xs = [1, 1, 2];\nnew Set<number>(xs).size"})
    assert result.is_error
    assert result.structured_content is not None
    assert "`number` is a TypeScript type" in result.structured_content["error"]["hint"]
