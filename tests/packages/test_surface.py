"""What a model reads of the packages: execute_js's description names the packages added (not their dependencies),
growing the catalogue by at most 15 tokens a package; code mode imports them too; a server without packages says
none are added."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.packages.catalog import Catalog
from sandbox_server.server import App
from sandbox_server.settings import Settings
from sandbox_server.tools.execute_js import execute_js_tool

from ..codemode.conftest import code_mode, stdio_server, write_config
from ..conftest import make_settings
from ..tools.test_catalogue_budget import count_tokens

pytestmark = pytest.mark.anyio

TOKENS_PER_PACKAGE = 15


def description(packages: Catalog | None) -> str:
    settings = make_settings(workers=1)
    return execute_js_tool(settings, None, packages=packages).description  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(("lodash",), id="one"),
        pytest.param(("date-fns", "dayjs", "decimal.js", "lodash"), id="four"),
        pytest.param(("@date-fns/tz", "mathjs", "papaparse", "uuid", "yaml", "zod"), id="six-with-a-scope"),
    ],
)
def test_the_description_names_each_package_for_at_most_fifteen_tokens(names: tuple[str, ...]) -> None:
    without = description(None)
    with_packages = description(Catalog(Path("/nowhere"), "0" * 64, names))
    for name in names:
        assert name in with_packages
    assert "packages, process.env" in without
    growth = count_tokens(with_packages) - count_tokens(without)
    assert growth <= TOKENS_PER_PACKAGE * len(names), growth


async def test_the_description_lists_the_added_names_not_their_dependencies(npm_packages: Path) -> None:
    app = App.create(make_settings(workers=1, packages_dir=npm_packages))
    async with Client(build_server(app=app), mode="auto") as client:
        listed = await client.list_tools()
    tool = next(tool for tool in listed.tools if tool.name == "execute_js")
    assert "npm packages (import or require): date-fns, dayjs, decimal.js, lodash." in (tool.description or "")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_without_packages_a_package_import_names_packages_add(mode: str, tmp_path: Path) -> None:
    app = App.create(Settings(workers=1, packages_dir=tmp_path))
    async with Client(build_server(app=app), mode=mode) as client:
        with anyio.fail_after(60):
            result = await client.call_tool("execute_js", {"code": "import _ from 'lodash';\n_.chunk([1], 1)"})
    assert result.structured_content is not None
    message = result.structured_content["error"]["message"]
    assert "sandbox-server packages add lodash" in message and "inline" in message


async def test_code_mode_imports_packages_beside_its_tools(npm_packages: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, {"records": stdio_server("records")})
    async with code_mode(config, packages_dir=npm_packages) as mode:
        with anyio.fail_after(60):
            value = await mode.value(
                "import _ from 'lodash';\nconst { records } = await tools.records.list_records({ limit: 5 });\n"
                "_.map(_.sortBy(records, 'id'), 'id').length"
            )
    assert value == 5
