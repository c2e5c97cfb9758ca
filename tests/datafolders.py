"""A data folder with ordinary files and hostile entries, built fresh for tests."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SALES_CSV = "date,category,amount\n2025-01-03,food,12.50\n2025-01-04,rent,800\n2025-01-09,food,7.25\n"
"""The folder's sales.csv: food 19.75, rent 800."""


@contextmanager
def hostile_folder(base: Path) -> Iterator[Path]:
    """``base/data`` holding ordinary files and every kind of entry the server must refuse; ``base/outside`` holds
    what lies beyond it. The bound socket stays open until the block ends."""
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside the folder\n")
    (outside / "dir").mkdir()
    (outside / "dir" / "inner.csv").write_text("a\n1\n")

    data = base / "data"
    data.mkdir()
    (data / "sales.csv").write_text(SALES_CSV)
    (data / "notes.txt").write_text("caf\u00e9 \U0001f600 notes\n")
    (data / "people.tsv").write_text("name\tage\nAda\t36\nAlan\t41\n")
    (data / "reports").mkdir()
    (data / "reports" / "2025.json").write_text('{"total": 3, "items": [1, 2]}')
    (data / "reports" / "deep").mkdir()
    (data / "reports" / "deep" / "more.json").write_text("[true]")
    (data / "blob.bin").write_bytes(bytes([0, 255, 128, 10]))
    (data / ".env").write_text("TOKEN=hidden\n")
    (data / ".hidden").mkdir()
    (data / ".hidden" / "inside.csv").write_text("x\n1\n")
    (data / "link-out").symlink_to(outside / "secret.txt")
    (data / "link-out-missing").symlink_to(outside / "nothing-here.txt")
    (data / "link-dir-out").symlink_to(outside / "dir")
    (data / "link-absolute").symlink_to("/etc/hostname")
    (data / "link-in.csv").symlink_to("sales.csv")
    (data / "link-to-hidden").symlink_to(".env")
    (data / "loop-a").symlink_to("loop-b")
    (data / "loop-b").symlink_to("loop-a")
    os.mkfifo(data / "pipe")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(data / "sock"))
        yield data
    finally:
        listener.close()


def snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ``folder`` with its type, size and modification time (nanoseconds), links not followed."""
    found = {}
    for directory, folders, files in os.walk(folder):
        for name in folders + files:
            info = os.lstat(os.path.join(directory, name))
            found[os.path.relpath(os.path.join(directory, name), folder)] = (
                info.st_mode,
                info.st_size,
                info.st_mtime_ns,
            )
    return found


def write_raw_name(folder: Path, raw: bytes, contents: bytes = b"a\n1\n") -> None:
    """A file in ``folder`` whose name is the bytes ``raw`` (which need not be UTF-8)."""
    descriptor = os.open(os.fsencode(folder) + b"/" + raw, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600)
    try:
        os.write(descriptor, contents)
    finally:
        os.close(descriptor)


def nested(folder: Path, levels: int, name: str = "d") -> Path:
    """``levels`` folders called ``name`` nested one in the other under ``folder``; returns the innermost."""
    inner = folder
    for _ in range(levels):  # one at a time: pathlib and os.makedirs recurse once per level
        inner = inner / name
        inner.mkdir()
    return inner


def csv_at_depths(folder: Path, depths: list[int]) -> list[str]:
    """A folder of nested ``d`` folders with a ``f.csv`` at each of ``depths`` (a name of that many components);
    returns the names of those files."""
    nested(folder, max(depths) - 1)
    names = []
    for depth in depths:
        name = "d/" * (depth - 1) + "f.csv"
        (folder / name).write_text("a\n1\n")
        names.append(name)
    return names


def remove_everything_in(folder: Path) -> None:
    """Empty ``folder`` without recursion: ``shutil.rmtree`` and ``os.walk`` recurse once per level, and a tree
    deeper than the interpreter's recursion limit left behind would break pytest's cleanup of old temporary
    folders in a later session."""
    folders = [os.fspath(folder)]
    found = 0
    while found < len(folders):
        with os.scandir(folders[found]) as scan:
            for entry in scan:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                else:
                    os.unlink(entry.path)
        found += 1
    for inner in reversed(folders[1:]):
        os.rmdir(inner)
