"""Containment of the data folder: every way out, and every entry that is not a plain visible file, is refused."""

from __future__ import annotations

import functools
import logging
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sandbox_server.data.folder import (
    MAX_COMPONENT_BYTES,
    MAX_DEPTH,
    MAX_NAME_CHARS,
    MAX_WALKED_ENTRIES,
    DataFile,
    DataFolder,
    Interrupted,
)
from sandbox_server.errors import PathRefused

from ..datafolders import csv_at_depths, hostile_folder, remove_everything_in, snapshot, write_raw_name


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    with hostile_folder(tmp_path) as folder:
        yield folder


@pytest.fixture
def folder(data: Path) -> DataFolder:
    return DataFolder(data)


LEAVES = "is not inside the data folder"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        pytest.param("../outside/secret.txt", LEAVES, id="dot-dot"),
        pytest.param("reports/../../outside/secret.txt", LEAVES, id="dot-dot-deeper"),
        pytest.param("reports/../sales.csv", LEAVES, id="dot-dot-that-stays-inside"),
        pytest.param("/etc/passwd", LEAVES, id="absolute"),
        pytest.param("~/x.csv", LEAVES, id="home"),
        pytest.param("C:/Windows/win.ini", LEAVES, id="drive-letter"),
        pytest.param("..\\outside\\secret.txt", "use '/' to separate folders", id="backslash"),
        pytest.param("link-out", LEAVES, id="symlink-to-a-file-outside"),
        pytest.param("link-out-missing", LEAVES, id="symlink-to-nothing-outside"),
        pytest.param("link-dir-out/inner.csv", LEAVES, id="through-a-symlinked-folder-outside"),
        pytest.param("link-absolute", LEAVES, id="absolute-symlink"),
        pytest.param("link-to-hidden", LEAVES, id="symlink-to-a-hidden-file"),
        pytest.param("loop-a", "no file", id="symlink-loop"),
        pytest.param("pipe", "not a regular file", id="fifo"),
        pytest.param("sock", "not a regular file", id="socket"),
        pytest.param("reports", "is a folder", id="folder"),
        pytest.param(".env", "hidden files", id="dotfile"),
        pytest.param(".hidden/inside.csv", "hidden files", id="hidden-folder"),
        pytest.param("reports/./2025.json", "'.' component", id="dot-component"),
        pytest.param("reports//2025.json", "empty or '.' component", id="empty-component"),
        pytest.param("sales.csv\x00.txt", "control character", id="nul"),
        pytest.param("sales.csv\n", "control character", id="newline"),
        pytest.param("a/" * (MAX_NAME_CHARS // 2 + 1), f"at most {MAX_NAME_CHARS}", id="long-path"),
        pytest.param("x" * (MAX_COMPONENT_BYTES + 1), f"longer than {MAX_COMPONENT_BYTES}", id="long-component"),
        pytest.param("SALES.csv", "no file", id="case-upper"),
        pytest.param("Reports/2025.json", "no file", id="case-folder"),
        pytest.param("missing.csv", "no file", id="missing"),
        pytest.param("", "non-empty", id="empty"),
    ],
)
def test_names_that_do_not_lead_to_a_plain_file_inside_the_folder_are_refused(
    folder: DataFolder, name: str, reason: str
) -> None:
    with pytest.raises(PathRefused) as refused:
        folder.resolve(name)
    assert reason in refused.value.message
    assert "outside the folder" not in refused.value.message
    assert folder.root not in refused.value.message


def test_a_refusal_does_not_tell_whether_the_target_outside_exists(folder: DataFolder) -> None:
    with pytest.raises(PathRefused) as existing:
        folder.resolve("link-out")
    with pytest.raises(PathRefused) as missing:
        folder.resolve("link-out-missing")
    with pytest.raises(PathRefused) as dot_dot:
        folder.resolve("../outside/nothing-here.txt")
    assert existing.value.message.replace("link-out", "X") == missing.value.message.replace("link-out-missing", "X")
    assert LEAVES in dot_dot.value.message


def test_a_device_inside_the_folder_is_refused(data: Path) -> None:
    try:
        os.mknod(data / "null", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs CAP_MKNOD")
    with pytest.raises(PathRefused, match="not a regular file"):
        DataFolder(data).resolve("null")


def test_plain_files_and_symlinks_that_stay_inside_resolve(folder: DataFolder) -> None:
    assert folder.resolve("sales.csv").size == len(folder.read(folder.resolve("sales.csv"), 1000))
    assert folder.resolve("reports/deep/more.json").name == "reports/deep/more.json"
    linked = folder.resolve("link-in.csv")
    assert linked.name == "link-in.csv"
    assert linked.real == os.path.join(folder.root, "sales.csv")


def test_listing_shows_only_visible_regular_files_inside(folder: DataFolder) -> None:
    names = [file.name for file in folder.files()]
    assert names == [
        "blob.bin",
        "link-in.csv",
        "notes.txt",
        "people.tsv",
        "reports/2025.json",
        "reports/deep/more.json",
        "sales.csv",
    ]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        pytest.param("*.csv", ["link-in.csv", "sales.csv"], id="star"),
        pytest.param("reports/*.json", ["reports/2025.json"], id="folder-star"),
        pytest.param("**/*.json", ["reports/2025.json", "reports/deep/more.json"], id="double-star"),
        pytest.param("reports/**", ["reports/2025.json", "reports/deep/more.json"], id="trailing-double-star"),
        pytest.param("people.?sv", ["people.tsv"], id="question-mark"),
        pytest.param("[ns]*", ["notes.txt", "sales.csv"], id="brackets"),
        pytest.param("*", ["blob.bin", "link-in.csv", "notes.txt", "people.tsv", "sales.csv"], id="no-hidden"),
    ],
)
def test_patterns_match_visible_files_only(folder: DataFolder, pattern: str, expected: list[str]) -> None:
    assert [file.name for file in folder.glob(pattern)] == expected


@pytest.mark.parametrize("pattern", ["../*", "/etc/*", ".*", "*/../*", ".hidden/*"])
def test_patterns_obey_the_rules_of_names(folder: DataFolder, pattern: str) -> None:
    with pytest.raises(PathRefused):
        folder.glob(pattern)


def test_reading_refuses_a_file_that_was_swapped_for_one_outside(folder: DataFolder, data: Path) -> None:
    # Between resolving and reading, the entry could change; the opened descriptor's real path is checked.
    outside = str(data.parent / "outside" / "secret.txt")
    with pytest.raises(PathRefused, match=LEAVES):
        folder.read(DataFile(name="sales.csv", real=outside, size=10), 1000)


def test_reading_refuses_a_symlink_put_in_place_after_resolving(folder: DataFolder, data: Path) -> None:
    resolved = folder.resolve("notes.txt")
    os.remove(data / "notes.txt")
    os.symlink(data.parent / "outside" / "secret.txt", data / "notes.txt")
    with pytest.raises(PathRefused):
        folder.read(resolved, 1000)


def test_reading_more_than_the_limit_is_refused_with_the_limit(folder: DataFolder) -> None:
    with pytest.raises(PathRefused, match="at most 10 bytes"):
        folder.read(folder.resolve("sales.csv"), 10)


def test_nothing_in_the_folder_changes(folder: DataFolder, data: Path) -> None:
    before = snapshot(data)
    list(folder.files())
    for name in ("sales.csv", "reports/2025.json", "blob.bin"):
        folder.read(folder.resolve(name), 10_000)
    for name in ("pipe", "sock", ".env", "link-out"):
        with pytest.raises(PathRefused):
            folder.resolve(name)
    assert snapshot(data) == before


def test_a_missing_folder_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        DataFolder(tmp_path / "absent")


# -- names no request can spell --------------------------------------------------------------------------------------


def test_names_that_are_not_utf8_are_neither_listed_nor_matched_and_are_counted_once_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "ok.csv").write_text("a\n1\n")
    write_raw_name(tmp_path, b"caf\xe9.csv")
    os.mkdir(os.fsencode(tmp_path) + b"/dir\xff")
    write_raw_name(tmp_path, b"dir\xff/inner.csv")
    folder = DataFolder(tmp_path)
    with caplog.at_level(logging.INFO, logger="sandbox_server.data.folder"):
        listed = [file.name for file in folder.files()]
    assert listed == ["ok.csv"]
    notes = [record.getMessage() for record in caplog.records]
    assert len(notes) == 1 and "2 entries whose names are not UTF-8" in notes[0]
    for pattern in ("*.csv", "**", "**/*.csv"):
        assert [file.name for file in folder.glob(pattern)] == ["ok.csv"]
    for pattern in ("*/*", "caf?.csv", "dir?/*"):
        assert folder.glob(pattern) == []


def test_a_name_holding_a_lone_surrogate_is_refused_with_a_message_that_is_valid_text(tmp_path: Path) -> None:
    # What an undecodable byte becomes in a Python name; a caller in the same process could pass one.
    write_raw_name(tmp_path, b"caf\xe9.csv")
    folder = DataFolder(tmp_path)
    for name in ("caf\udce9.csv", "caf\udce9*"):
        with pytest.raises(PathRefused, match="not valid Unicode") as refused:
            folder.glob(name) if "*" in name else folder.resolve(name)
        refused.value.message.encode("utf-8")


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("back\\slash.csv", id="backslash"),
        pytest.param("del\x7f.csv", id="delete-character"),
        pytest.param("tab\t.csv", id="tab"),
        pytest.param("~home.csv", id="leading-tilde"),
        pytest.param("c:drive.csv", id="drive-letter"),
    ],
)
def test_entries_whose_names_a_request_could_not_spell_are_not_listed(tmp_path: Path, name: str) -> None:
    (tmp_path / "ok.csv").write_text("a\n1\n")
    (tmp_path / name).write_text("x\n")
    folder = DataFolder(tmp_path)
    with pytest.raises(PathRefused):
        folder.resolve(name)
    assert [file.name for file in folder.files()] == ["ok.csv"]
    assert [file.name for file in folder.glob("*")] == ["ok.csv"]


# -- depth -----------------------------------------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    """An empty folder that is emptied again afterwards, however deep what the test put in it."""
    made = tmp_path / "tree"
    made.mkdir()
    try:
        yield made
    finally:
        remove_everything_in(made)


def test_folders_nested_deeper_than_the_cap_are_left_out_of_listings_and_patterns(
    tree: Path, caplog: pytest.LogCaptureFixture
) -> None:
    names = csv_at_depths(tree, [1, 2, MAX_DEPTH, MAX_DEPTH + 1, 1_101])
    folder = DataFolder(tree)
    with caplog.at_level(logging.INFO, logger="sandbox_server.data.folder"):
        listed = [file.name for file in folder.files()]
    assert sorted(listed) == sorted(names[:3])
    notes = [record.getMessage() for record in caplog.records]
    assert len(notes) == 1 and f"deeper than {MAX_DEPTH} levels" in notes[0]
    assert sorted(file.name for file in folder.glob("**/f.csv")) == sorted(names[:3])
    assert sorted(file.name for file in folder.glob("d/**")) == sorted(names[1:3])


def test_a_name_deeper_than_the_cap_is_refused_naming_the_limit(tmp_path: Path) -> None:
    names = csv_at_depths(tmp_path, [MAX_DEPTH, MAX_DEPTH + 1])
    folder = DataFolder(tmp_path)
    assert folder.resolve(names[0]).name == names[0]
    with pytest.raises(PathRefused, match=f"at most {MAX_DEPTH} levels"):
        folder.resolve(names[1])


# -- patterns --------------------------------------------------------------------------------------------------------


def test_a_pattern_deeper_than_the_cap_is_refused_naming_the_limit(folder: DataFolder) -> None:
    with pytest.raises(PathRefused, match=f"at most {MAX_DEPTH} levels"):
        folder.glob("**/" * 300 + "*.csv")


def test_runs_of_double_stars_in_a_deep_folder_match_what_one_would(tmp_path: Path) -> None:
    # Matching each "**" by trying every split of the path costs combinations of (stars, depth) for a file
    # that does not match: against one 40 levels down, these patterns never finished that way.
    names = csv_at_depths(tmp_path, [1, 5, 20, 40])
    (tmp_path / ("d/" * 39 + "g.txt")).write_text("matches no pattern here")
    folder = DataFolder(tmp_path)
    assert [file.name for file in folder.glob("**/" * 60 + "*.csv")] == [file.name for file in folder.glob("**/*.csv")]
    assert sorted(file.name for file in folder.glob("**/" * 60 + "*.csv")) == sorted(names)
    alternating = "**/d/" * 25 + "**/f.csv"
    assert [file.name for file in folder.glob(alternating)] == [names[3]]


@functools.cache
def _reference_match(pattern: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    """What a pattern means, written the slow and obvious way: ``**`` is any number of folders, and a
    trailing ``**`` at least one component."""
    import fnmatch

    if not pattern:
        return not parts
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        if not rest:
            return bool(parts)
        return any(_reference_match(rest, parts[skip:]) for skip in range(len(parts)))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], head) and _reference_match(rest, parts[1:])


@pytest.mark.parametrize(
    "pattern",
    [
        "**", "**/**", "*", "*/*", "a/**", "**/c.csv", "a/**/c.csv", "**/b/**", "**/*/c.csv", "a/**/**/c.csv",
        "?/**/?.csv", "[ab]/**", "**/a/**/c.csv", "**/**/*.json", "a/b/**/**", "**/b", "b/**/a/*", "**/[!a]*",
        "a*/**/*c*", "a/**/b/**/e.json",
    ],
)  # fmt: skip
def test_patterns_match_exactly_the_listed_files_their_definition_selects(tmp_path: Path, pattern: str) -> None:
    for name in ("a/b/c.csv", "a/c.csv", "a/b/d/e.json", "x.csv", "b/a/c.csv", "a/b/b/b/c.csv", "ab/c.csv", "c.csv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("1")
    folder = DataFolder(tmp_path)
    expected = [
        file.name for file in folder.files() if _reference_match(tuple(pattern.split("/")), tuple(file.name.split("/")))
    ]
    assert [file.name for file in folder.glob(pattern)] == expected


def test_listings_are_in_name_order_even_where_a_folder_name_is_a_prefix_of_a_file_name(tmp_path: Path) -> None:
    # "a/x" sorts after "a-b" ('/' comes after '-'): the order resources/list pages by.
    for name in ("a/x.csv", "a-b.csv", "a.csv", "a0.csv", "a/y/z.csv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("1")
    names = [file.name for file in DataFolder(tmp_path).files()]
    assert names == sorted(names) == ["a-b.csv", "a.csv", "a/x.csv", "a/y/z.csv", "a0.csv"]
    assert [file.name for file in DataFolder(tmp_path).files(after="a.csv")] == ["a/x.csv", "a/y/z.csv", "a0.csv"]


# -- bounded work ----------------------------------------------------------------------------------------------------


def test_a_walk_reads_at_most_the_cap_of_entries_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sandbox_server.data.folder as datafolder

    monkeypatch.setattr(datafolder, "MAX_WALKED_ENTRIES", 10)
    for index in range(4):
        (tmp_path / f"f{index}").mkdir()
        for inner in range(4):
            (tmp_path / f"f{index}" / f"{inner}.txt").write_text("1")
    with caplog.at_level(logging.INFO, logger="sandbox_server.data.folder"):
        listed = [file.name for file in DataFolder(tmp_path).files()]
    assert listed == ["f0/0.txt", "f0/1.txt", "f0/2.txt", "f0/3.txt"]
    assert any("after reading 10 entries" in record.getMessage() for record in caplog.records)
    assert MAX_WALKED_ENTRIES >= 100_000


def test_a_walk_stops_between_entries_when_asked_to(tmp_path: Path) -> None:
    for index in range(50):
        (tmp_path / f"f{index:02d}.txt").write_text("1")
    asked = 0

    def stop() -> bool:
        nonlocal asked
        asked += 1
        return asked > 5

    walked = []
    with pytest.raises(Interrupted):
        walked.extend(DataFolder(tmp_path).files(stop=stop))
    assert len(walked) < 5
    asked = 0
    with pytest.raises(Interrupted):
        DataFolder(tmp_path).read(DataFolder(tmp_path).resolve("f00.txt"), 10, stop=lambda: True)


@pytest.mark.anyio
async def test_work_off_the_loop_learns_that_its_caller_was_cancelled_and_is_waited_for() -> None:
    import threading

    import anyio

    from sandbox_server.data.folder import off_the_loop

    entered, release = threading.Event(), threading.Event()
    answers: list[bool] = []

    def work(stop: Callable[[], bool]) -> None:
        answers.append(stop())
        entered.set()
        release.wait(30)
        answers.append(stop())
        raise Interrupted

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            group.start_soon(off_the_loop, work)
            await anyio.to_thread.run_sync(entered.wait, abandon_on_cancel=True)
            group.cancel_scope.cancel()
            release.set()
        # Leaving the group waited for the thread: it has answered twice, and its Interrupted became the
        # cancellation it stood for instead of an error of the group.
        assert answers == [False, True]
