"""How code loads packages, on packages made for the purpose: the rules Node 20 follows (conditions, main,
folders, extensions, ``imports``, live bindings of ES modules), what package code sees of ``process``, and the
errors for what is missing or refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings
from .crafted import add_crafted

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def crafted_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return add_crafted(tmp_path_factory.mktemp("crafted"))


@pytest.fixture(scope="module", params=["auto", "legacy"])
async def client(request: pytest.FixtureRequest, crafted_folder: Path) -> AsyncIterator[Client]:
    app = App.create(make_settings(workers=1, packages_dir=crafted_folder))
    async with Client(build_server(app=app), mode=request.param) as connected:
        yield connected


async def run(client: Client, code: str) -> dict[str, Any]:
    with anyio.fail_after(60):
        result = await client.call_tool("execute_js", {"code": code})
    assert result.structured_content is not None
    return result.structured_content


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("require('dual').kind", "'require'", id="require-condition"),
        pytest.param("import { kind } from 'dual';\nkind", "'import'", id="import-condition"),
        pytest.param("(await import('dual')).kind", "'import'", id="dynamic-import-condition"),
        pytest.param("require('dual/sync').kind", "'module-sync'", id="module-sync"),
        pytest.param("require('dual/lib/x')", "'x'", id="pattern"),
        pytest.param("require('dual/self')", "'x'", id="self-reference"),
        pytest.param("require('dual/package.json').name", "'dual'", id="exported-json"),
        pytest.param("require('plain/sub')", "'folder index'", id="folder-index"),
        pytest.param("require('plain/data').answer", "42", id="json-by-extension"),
        pytest.param("require('plain/hash')", "'86f7e437faa5a7fce15d1ddcb9eaeaea377667b8'", id="builtin-in-package"),
        pytest.param(
            "const m = require('plain'); [m.internal, m.dir, m.file, m.same].join()",
            "'folder index,/node_modules/plain,/node_modules/plain/main.js,true'",
            id="imports",
        ),
        pytest.param(
            "import * as live from 'live';\nlive.bump(); live.bump(); [live.count, live.seen()]",
            "[ 2, 2 ]",
            id="live-binding-and-cycle",
        ),
        pytest.param("import { shadow } from 'live';\nshadow(5)", "10", id="shadowed-import"),
        pytest.param(
            "import anonymous from 'live';\n[anonymous.name, anonymous()]",
            "[ 'default', 'anonymous' ]",
            id="anonymous-default",
        ),
        pytest.param(
            "Object.keys(await import('live'))",
            "[ 'bump', 'count', 'default', 'seen', 'shadow' ]",
            id="namespace-sorted",
        ),
        pytest.param("require('live').count", "0", id="require-of-an-es-module"),
    ],
)
async def test_a_name_loads_the_module_node_would_load(client: Client, code: str, expected: str) -> None:
    outcome = await run(client, code)
    assert outcome["error"] is None, outcome["error"]
    assert outcome["resultText"] == expected


async def test_package_code_sees_an_empty_frozen_environment_and_the_code_keeps_its_error(client: Client) -> None:
    outcome = await run(client, "const m = require('plain'); [m.env, m.keys, m.frozen, m.global]")
    assert outcome["resultText"] == "[ undefined, 0, true, 'object' ]"
    refused = await run(client, "require('plain'); process.env.HOME")
    assert refused["error"]["message"].startswith("process.env is not available in this sandbox")


@pytest.mark.parametrize(
    ("code", "words"),
    [
        pytest.param(
            "require('left-pad')", ["sandbox-server packages add left-pad", "dual, live, plain"], id="not-added"
        ),
        pytest.param("import x from '@scope/thing/sub';", ["packages add @scope/thing"], id="scoped-not-added"),
        pytest.param(
            "require('dual/hidden')", ["Package subpath './hidden' is not defined by \"exports\""], id="not-exported"
        ),
        pytest.param("const n = 'dual'; require(n)", ["names it with a string literal"], id="computed-name"),
        pytest.param("require('plain/spawn')", ["child_process", "runs programs on the host"], id="child-process"),
        pytest.param("require('plain/throws')", ["first load fails"], id="throwing-module"),
    ],
)
async def test_what_cannot_be_loaded_fails_with_an_error_that_says_why(
    client: Client, code: str, words: list[str]
) -> None:
    outcome = await run(client, code)
    assert outcome["ok"] is False
    for word in words:
        assert word in outcome["error"]["message"]


async def test_a_package_reading_the_data_folder_api_gets_no_writes(client: Client) -> None:
    outcome = await run(client, "require('plain/escape')")
    assert outcome["error"] is None or "fs" in outcome["error"]["message"]
    assert outcome["resultText"] in (None, "'function'")
