"""Code that imports real npm packages prints in the sandbox what Node 20 prints with the same versions.

``snippets/expected.json`` is Node's output (``generate.py``); each snippet runs through execute_js as a model would
send it, over both MCP revisions, and in a session too.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings

pytestmark = pytest.mark.anyio

SNIPPETS = Path(__file__).resolve().parent / "snippets"
EXPECTED = json.loads((SNIPPETS / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=["auto", "legacy"])
async def packaged(request: pytest.FixtureRequest, npm_packages: Path) -> AsyncIterator[Client]:
    app = App.create(make_settings(workers=1, packages_dir=npm_packages))
    async with Client(build_server(app=app), mode=request.param) as client:
        yield client


@pytest.fixture(scope="module")
async def connected(npm_packages: Path) -> AsyncIterator[Client]:
    """A client whose calls share a connection, so that a named session is kept between them (legacy revision)."""
    app = App.create(make_settings(workers=1, packages_dir=npm_packages))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield client


async def run(client: Client, code: str, **arguments: object) -> dict[str, object]:
    with anyio.fail_after(60):
        result = await client.call_tool("execute_js", {"code": code, "timeout_ms": 20_000, **arguments})
    assert result.structured_content is not None
    return result.structured_content


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=lambda name: name.rsplit(".", 1)[0])
async def test_a_snippet_prints_what_node_prints_with_the_same_packages(packaged: Client, name: str) -> None:
    outcome = await run(packaged, (SNIPPETS / name).read_text(encoding="utf-8"))
    assert outcome["error"] is None, outcome["error"]
    assert outcome["stdout"] == EXPECTED[name]["stdout"]


async def test_the_snippets_print_the_same_in_a_session_one_cell_after_another(connected: Client) -> None:
    names = ["lodash_require.cjs", "date_fns_named.mjs", "dayjs_plugin_require.cjs"]
    for name in names:
        outcome = await run(connected, (SNIPPETS / name).read_text(encoding="utf-8"), session="parity")
        assert outcome["error"] is None, outcome["error"]
        assert outcome["stdout"] == EXPECTED[name]["stdout"]


async def test_a_session_keeps_one_instance_of_a_package_across_cells(connected: Client) -> None:
    await run(connected, "const _ = require('lodash'); _.marker = 42", session="instances")
    outcome = await run(connected, "import lodash from 'lodash';\nlodash.marker", session="instances")
    assert outcome["resultText"] == "42"


async def test_typescript_that_imports_packages_runs_like_its_javascript(packaged: Client) -> None:
    code = (
        "import { format, addDays } from 'date-fns';\nimport type { Locale } from 'date-fns';\n"
        "const when: Date = addDays(new Date(Date.UTC(2024, 1, 28)), 1);\nconst none: Locale | undefined = undefined;\n"
        "format(when, 'yyyy-MM-dd') + String(none)"
    )
    outcome = await run(packaged, code)
    assert outcome["resultText"] == "'2024-02-29undefined'"
