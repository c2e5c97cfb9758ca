"""Attacks through the data folder's content and the ``files`` argument: names JSON cannot carry, folders nested
beyond any use, patterns whose matching once exploded, and calls abandoned while the server walks the folder.

The server runs in this process, so a test can hold the thread that walks the folder at a known point (by
wrapping ``os.scandir``) and so make "while the walk is under way" certain instead of a matter of timing.
"""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

import sandbox_server.tools.runs as execute_js
from sandbox_server import build_server
from sandbox_server.data.folder import MAX_DEPTH
from sandbox_server.server import App

from ..conftest import make_settings
from ..datafolders import csv_at_depths, remove_everything_in, write_raw_name
from .conftest import CALL_WAIT_S, Sandbox

pytestmark = [
    pytest.mark.anyio,
    # ping is what this revision of the protocol has for "is the server's loop free": the sessions here are legacy.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

PING_WAIT_S = 10
"""Bound on a ping sent while the folder is being walked: generous, the loop answers in milliseconds."""
SUBFOLDERS = 40
"""Folders under ``wide/``: how many directory reads a walk that nobody stops would still make."""


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("attacked")
    try:
        (folder / "ok.csv").write_text("a\n1\n")
        write_raw_name(folder, b"caf\xe9.csv")
        os.mkdir(os.fsencode(folder) + b"/dir\xff")
        write_raw_name(folder, b"dir\xff/inner.csv")
        (folder / "deep").mkdir()
        csv_at_depths(folder / "deep", [1, 30, MAX_DEPTH - 1, MAX_DEPTH, 1_100])
        (folder / "deep" / ("d/" * 39 + "g.txt")).write_text("matches none of the patterns used here")
        for index in range(SUBFOLDERS):
            (folder / "wide" / f"s{index:02d}").mkdir(parents=True)
            for inner in range(2):  # 80 files in all: fewer than max_files, so only a stop ends the walk early
                (folder / "wide" / f"s{index:02d}" / f"{inner}.txt").write_text(str(inner))
        yield folder
    finally:
        remove_everything_in(folder)


@pytest.fixture(scope="module")
async def sandbox(data: Path) -> AsyncIterator[Sandbox]:
    app = App.create(make_settings(data_dir=data))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield Sandbox(client, app)


class HeldWalk:
    """``os.scandir`` wrapped: counts the folders read under ``within`` and, at the ``hold_at``-th, waits (in the
    walking thread) until the test releases it."""

    def __init__(self, within: Path, hold_at: int) -> None:
        self.within = os.fspath(within)
        self.hold_at = hold_at
        self.reads = 0
        self.entered = threading.Event()
        self.release = threading.Event()
        self._scandir: Callable[..., Any] = os.scandir

    def __call__(self, path: Any = ".") -> Any:
        if isinstance(path, str) and (path == self.within or path.startswith(self.within + os.sep)):
            self.reads += 1
            if self.reads == self.hold_at:
                self.entered.set()
                self.release.wait(CALL_WAIT_S)
        return self._scandir(path)

    async def wait_until_held(self) -> None:
        with anyio.fail_after(CALL_WAIT_S):
            await anyio.to_thread.run_sync(self.entered.wait, abandon_on_cancel=True)


@pytest.fixture
def hold_walk() -> Iterator[Callable[[pytest.MonkeyPatch, Path, int], HeldWalk]]:
    """Installs a :class:`HeldWalk`; whatever happens in the test, the held thread is released at its end."""
    made: list[HeldWalk] = []

    def install(monkeypatch: pytest.MonkeyPatch, within: Path, hold_at: int) -> HeldWalk:
        held = HeldWalk(within, hold_at)
        monkeypatch.setattr(os, "scandir", held)
        made.append(held)
        return held

    yield install
    for held in made:
        held.release.set()


async def test_names_that_are_not_utf8_break_neither_listing_nor_patterns(sandbox: Sandbox) -> None:
    names: list[str] = []
    cursor: str | None = None
    with anyio.fail_after(CALL_WAIT_S):
        while True:
            page = await sandbox.client.list_resources(cursor=cursor, cache_mode="bypass")
            page.model_dump_json(by_alias=True)  # what a transport sends; a lone surrogate would fail here
            names.extend(resource.name for resource in page.resources)
            cursor = page.next_cursor
            if not cursor:
                break
    assert "ok.csv" in names
    assert all("caf" not in name and not name.startswith("dir") for name in names)
    listed = await sandbox.run("Object.keys(files)", files=["*.csv"])
    assert listed.kind is None, listed.text
    assert listed.structured["result"] == ["ok.csv"]
    inside = await sandbox.run("1", files=["dir*/*"])
    assert inside.kind == "arguments" and "matches no file" in inside.text
    await sandbox.assert_still_serving()


async def test_folders_nested_past_the_limit_are_left_out_and_a_deeper_name_is_refused_naming_it(
    sandbox: Sandbox,
) -> None:
    listed = await sandbox.run("Object.keys(files)", files=["deep/**/*.csv"])
    assert listed.kind is None, listed.text
    depths = sorted(name.count("/") + 1 for name in listed.structured["result"])
    assert depths == [2, 31, MAX_DEPTH]  # "deep/" is one level: the file 64 levels down in it is one too many
    too_deep = await sandbox.run("1", files=["deep/" + "d/" * (MAX_DEPTH - 1) + "f.csv"])
    assert too_deep.kind == "arguments"
    assert f"at most {MAX_DEPTH} levels" in too_deep.text
    with anyio.fail_after(CALL_WAIT_S):
        await sandbox.client.list_resources(cache_mode="bypass")
    await sandbox.assert_still_serving()


async def test_hundreds_of_double_stars_are_refused_at_once_naming_the_limit(sandbox: Sandbox) -> None:
    refused = await sandbox.run("1", files=["**/" * 300 + "*.csv"])
    assert refused.kind == "arguments"
    assert f"at most {MAX_DEPTH} levels" in refused.text
    await sandbox.assert_still_serving()


async def test_a_pattern_whose_matching_once_exploded_is_answered_and_ping_answers_while_it_is_walked(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, data: Path, hold_walk: Callable[..., HeldWalk]
) -> None:
    # Sixty "**" before a name that a file 40 levels down does not have: trying every way to split its path among
    # them never finished. The walk is held at its tenth folder while a ping is sent.
    held = hold_walk(monkeypatch, data / "deep", hold_at=10)
    pattern = "deep/" + "**/" * 60 + "f.csv"
    answers: list[Any] = []

    async def call() -> None:
        answers.append(await sandbox.run("Object.keys(files)", files=[pattern]))

    with anyio.fail_after(CALL_WAIT_S):
        async with anyio.create_task_group() as group:
            group.start_soon(call)
            await held.wait_until_held()
            with anyio.fail_after(PING_WAIT_S):
                await sandbox.client.send_ping()
            assert not answers  # the ping was answered while the call was still walking the folder
            held.release.set()
    [answered] = answers
    assert answered.kind is None, answered.text
    assert sorted(name.count("/") + 1 for name in answered.structured["result"]) == [2, 31, MAX_DEPTH]
    await sandbox.assert_still_serving()


async def test_cancelling_a_call_stops_its_walk_of_the_folder(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, data: Path, hold_walk: Callable[..., HeldWalk]
) -> None:
    # The walk is held in the first of the forty subfolders while the client gives up on the call; once released,
    # it must notice and end instead of reading the other thirty-nine.
    held = hold_walk(monkeypatch, data / "wide", hold_at=2)
    finished = threading.Event()
    ended_by: list[str] = []
    select = execute_js.select

    def watched_select(*arguments: Any) -> Any:
        try:
            return select(*arguments)
        except BaseException as exc:
            ended_by.append(type(exc).__name__)
            raise
        finally:
            finished.set()

    async def call() -> None:
        await sandbox.run("Object.keys(files).length", files=["wide/**/*.txt"])

    monkeypatch.setattr(execute_js, "select", watched_select)
    with anyio.fail_after(CALL_WAIT_S):
        async with anyio.create_task_group() as group:
            group.start_soon(call)
            await held.wait_until_held()
            group.cancel_scope.cancel()  # the client gives up, and tells the server so
        # The server reads messages in order: once this ping is answered, it has applied the cancellation.
        await sandbox.client.send_ping()
        held.release.set()
        await anyio.to_thread.run_sync(finished.wait, abandon_on_cancel=True)
    assert ended_by == ["Interrupted"]
    assert held.reads == 2  # "wide" and the subfolder it was held in, none after
    await sandbox.assert_still_serving()
