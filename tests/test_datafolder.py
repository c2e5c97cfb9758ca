"""Containment of the data folder: every way out, and every entry that is not a plain visible file, is refused."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox_server.datafolder import MAX_COMPONENT_BYTES, MAX_NAME_CHARS, DataFile, DataFolder
from sandbox_server.errors import PathRefused

from .datafolders import hostile_folder, snapshot


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
