"""Node's fs over the data folder, attacked: every way out of the folder, every entry it must not show, and the
execution's budget, for the reads done before the run (names in the code) and those asked while it runs."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings
from ..datafolders import hostile_folder
from .conftest import Sandbox

pytestmark = pytest.mark.anyio

SECRETS = ("outside the folder", "TOKEN=hidden")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with hostile_folder(tmp_path_factory.mktemp("node-fs")) as data:
        yield data


@pytest.fixture(scope="module")
async def fs_sandbox(folder: Path) -> AsyncIterator[Sandbox]:
    app = App.create(make_settings(data_dir=folder))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield Sandbox(client, app)


OUTSIDE = [
    "../outside/secret.txt",
    "/etc/hostname",
    "link-out",
    "link-absolute",
    "link-dir-out/inner.csv",
    ".env",
    "link-to-hidden",
    ".hidden/inside.csv",
    "pipe",
    "sock",
    "loop-a",
    "reports/../../outside/secret.txt",
    "./../outside/secret.txt",
]


@pytest.mark.parametrize("name", OUTSIDE)
@pytest.mark.parametrize("form", ["sync", "promise", "callback"])
async def test_no_name_reads_anything_outside_the_folder_or_hidden_in_it(
    fs_sandbox: Sandbox, name: str, form: str
) -> None:
    read = {
        "sync": f"fs.readFileSync({name!r}, 'utf8')",
        "promise": f"await fs.promises.readFile({name!r}, 'utf8')",
        "callback": f"await new Promise((ok, no) => fs.readFile({name!r}, 'utf8', (e, d) => (e ? no(e) : ok(d))))",
    }[form]
    call = await fs_sandbox.run(f"const fs = require('fs');\n{read}")
    assert call.is_error, call.text
    assert call.kind == "runtime"
    assert not any(secret in call.text for secret in SECRETS)
    await fs_sandbox.assert_still_serving()


async def test_listings_show_only_what_a_name_can_reach(fs_sandbox: Sandbox) -> None:
    code = """
    const fs = require('fs');
    const sync = fs.readdirSync('.');
    const later = await fs.promises.readdir('.');
    [sync, later, fs.readdirSync('reports'), fs.existsSync('.env'), fs.existsSync('link-in.csv')]
    """
    call = await fs_sandbox.run(code)
    assert call.structured["ok"], call.text
    sync, later, reports, env, link_in = call.structured["result"]
    assert sync == later
    assert not any(name.startswith(".") for name in sync)
    assert "link-out" not in sync and "link-absolute" not in sync and "link-dir-out" not in sync
    assert {"sales.csv", "reports", "link-in.csv"} <= set(sync)
    assert reports == ["2025.json", "deep"]
    assert (env, link_in) == (False, True)


async def test_writes_fail_saying_the_folder_is_read_only_and_change_nothing(fs_sandbox: Sandbox, folder: Path) -> None:
    before = sorted(os.listdir(folder))
    for write in (
        "fs.writeFileSync('new.txt', 'x')",
        "fs.appendFileSync('sales.csv', 'x')",
        "fs.unlinkSync('sales.csv')",
        "await fs.promises.writeFile('new.txt', 'x')",
        "fs.mkdirSync('made')",
    ):
        call = await fs_sandbox.run(f"const fs = require('fs');\n{write}")
        assert call.is_error and "EROFS" in call.text and "read-only" in call.text, call.text
    assert sorted(os.listdir(folder)) == before


async def test_a_name_known_only_at_run_time_is_read_asynchronously_and_refused_synchronously(
    fs_sandbox: Sandbox,
) -> None:
    name = "'sa' + 'les.csv'"
    sync = await fs_sandbox.run(f"const fs = require('fs'); fs.readFileSync({name}, 'utf8')")
    assert sync.is_error and "fs.promises.readFile" in sync.text and "`files`" in sync.text
    later = await fs_sandbox.run(f"const fs = require('fs'); (await fs.promises.readFile({name}, 'utf8')).length")
    assert later.structured["result"] == len((Path(fs_sandbox.app.settings.data_dir or "") / "sales.csv").read_text())


@pytest.fixture(scope="module")
async def small_budget(folder: Path) -> AsyncIterator[Sandbox]:
    app = App.create(make_settings(data_dir=folder, max_files=2, max_files_bytes=200))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield Sandbox(client, app)


async def test_reads_before_and_during_the_run_share_the_executions_budget(small_budget: Sandbox) -> None:
    code = """
    const fs = require('fs');
    const first = fs.readFileSync('sales.csv', 'utf8').length;
    let second;
    try { await fs.promises.readFile('people.tsv'); second = 'read'; } catch (e) { second = e.message; }
    let third;
    try { await fs.promises.readFile('notes.txt'); third = 'read'; } catch (e) { third = e.message; }
    [first, second, third]
    """
    call = await small_budget.run(code)
    first, second, third = call.structured["result"]
    assert first > 0
    assert second == "read"
    assert "max_files" in third


async def test_without_a_data_folder_fs_says_how_data_reaches_the_code(sandbox: Sandbox) -> None:
    call = await sandbox.run("require('fs').readFileSync('sales.csv', 'utf8')")
    assert call.is_error and "no data folder" in call.text and "`input`" in call.text
