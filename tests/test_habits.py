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
    ("code", "error_name", "advice"),
    [
        pytest.param("const fs = require('fs'); fs.readFileSync('a.csv', 'utf8')", "ReferenceError", "inline",
                     id="require"),
        pytest.param("import fs from 'fs';\nfs.readFileSync('x')", "SyntaxError", "inline", id="static-import"),
        pytest.param("import { sum } from 'lodash';\nsum([1])", "SyntaxError", "inline", id="named-import"),
        pytest.param("const m = await import('lodash'); m", "Error", "inline", id="dynamic-import"),
        pytest.param("process.stdout.write('hi')", "ReferenceError", "console.log", id="process-stdout"),
        pytest.param("const n = Number(process.argv[2]); n * 2", "ReferenceError", "input", id="process-argv"),
        pytest.param("Buffer.from('hello').toString('base64')", "ReferenceError", "btoa", id="buffer"),
        pytest.param("const p = __dirname + '/data.csv'; p", "ReferenceError", "input", id="dirname"),
        pytest.param("const r = await fetch('https://example.com'); await r.text()", "ReferenceError", "input",
                     id="fetch"),
        pytest.param("const x = new XMLHttpRequest(); x", "ReferenceError", "input", id="xhr"),
        pytest.param("document.querySelector('p')", "ReferenceError", "console.log", id="document"),
        pytest.param("export const x = 1;\nx", "SyntaxError", "export", id="export"),
    ],
)  # fmt: skip
async def test_node_and_browser_habits_get_an_error_that_says_what_to_use_instead(
    client: Client, code: str, error_name: str, advice: str
) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is True
    error = structured["error"]
    assert error["name"] == error_name, text
    assert advice in error["hint"]
    assert "Hint: " + error["hint"] in text


async def test_an_ordinary_reference_error_gets_no_hint(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "undefinedVariable + 1")
    assert is_error is True
    assert "hint" not in structured["error"]


def test_with_a_data_folder_the_file_system_hint_points_to_files() -> None:
    from sandbox_server.tools.hints import hint_for

    error = {"name": "ReferenceError", "message": "__dirname is not defined"}
    assert "`files`" in (hint_for(error, "__dirname", data_folder=True) or "")
    assert "`files`" not in (hint_for(error, "__dirname") or "")


async def test_a_type_argument_read_as_a_comparison_gets_a_hint_that_names_the_type(client: Client) -> None:
    result = await client.call_tool("execute_js", {"code": "const xs = [1, 1, 2];\nnew Set<number>(xs).size"})
    assert result.is_error
    assert result.structured_content is not None
    assert "`number` is a TypeScript type" in result.structured_content["error"]["hint"]
