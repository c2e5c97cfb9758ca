"""What ``execute_js``'s ``files`` argument becomes: the named files read, decoded, parsed and packed for a worker.

Everything happens on the host before the execution starts, so the isolate still reaches nothing outside
itself: it receives one string, the *payload*, and the runtime (``js_runtime/files.js``) builds the global
``files`` from it.

Payload format: a manifest, one line of JSON, then a newline, then the body, which is the concatenation of
every file's pieces. The manifest is a list with one object per file::

    {"name": "sales/2025.csv", "size": 5120, "type": "text/csv", "format": "csv",
     "text": [0, 5120], "records": [5120, 9800]}

where each piece (``text``; ``records``, the CSV rows as JSON text; ``base64`` for bytes) is a ``[start,
end]`` range of UTF-16 code units in the body. The body is never escaped or nested in another JSON string,
and the runtime slices and parses a piece only when the code first asks for it, so unused forms cost
nothing in the isolate.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sandbox_server.datafolder import DataFile, DataFolder, is_pattern
from sandbox_server.errors import ArgumentError, PathRefused
from sandbox_server.sandbox.protocol import MAX_FRAME_BYTES

__all__ = ["FORMATS", "FileRequest", "FilesLimits", "build_payload", "check_frame_room", "parse_requests", "select"]

FORMATS = ("auto", "text", "csv", "tsv", "json", "bytes")
"""How a file may be asked for: ``auto`` picks csv, tsv or json by extension, text otherwise."""

Format = Literal["text", "csv", "tsv", "json", "bytes"]

_BY_EXTENSION: dict[str, Format] = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json"}

# The whole file is one value; the csv module's default limit of 128 KiB per field would refuse legitimate data.
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


@dataclass(frozen=True, slots=True)
class FileRequest:
    """One entry of the ``files`` argument: a name or pattern, and how to read what it names."""

    path: str
    format: str = "auto"


@dataclass(frozen=True, slots=True)
class FilesLimits:
    """Caps of one call: how many files, and how many bytes in total (as stored on disk)."""

    max_files: int
    max_bytes: int


def _argument_error(message: str) -> ArgumentError:
    return ArgumentError(message, problems=[message])


def parse_requests(value: Any) -> list[FileRequest]:
    """The ``files`` argument (already checked against the schema) as requests."""
    requests = []
    for item in value:
        if isinstance(item, str):
            requests.append(FileRequest(item))
        else:
            requests.append(FileRequest(item["path"], item.get("as", "auto")))
    return requests


def select(folder: DataFolder, requests: Sequence[FileRequest], limits: FilesLimits) -> list[tuple[DataFile, Format]]:
    """The files the requests name, each once, in order, with the format to read it in; checks the caps.

    Raises:
        PathRefused: A name is refused, or a pattern matches nothing.
        ArgumentError: More files than ``limits.max_files``, or more bytes than ``limits.max_bytes``.
    """
    chosen: dict[str, tuple[DataFile, Format]] = {}
    for request in requests:
        matched = _named(folder, request.path)
        for file in matched:
            if file.name not in chosen:
                chosen[file.name] = (file, _format_of(file.name, request.format))
            if len(chosen) > limits.max_files:
                raise _argument_error(
                    f"files names more than {limits.max_files} files; at most {limits.max_files} files can be passed "
                    "in one call (max_files): name fewer files or narrow the pattern"
                )
    total = sum(file.size for file, _ in chosen.values())
    if total > limits.max_bytes:
        largest = max(chosen.values(), key=lambda pair: pair[0].size)[0]
        raise _argument_error(
            f"files total {total} bytes (the largest, {largest.name!r}, is {largest.size} bytes); at most "
            f"{limits.max_bytes} bytes can be passed in one call (max_files_bytes): pass fewer or smaller files"
        )
    return list(chosen.values())


def _named(folder: DataFolder, name: str) -> list[DataFile]:
    """The files ``name`` stands for: the file of that name when there is one (``report[1].csv`` can be a
    plain name), otherwise, for a name with pattern characters, every file it matches."""
    if not is_pattern(name):
        return [folder.resolve(name)]
    try:
        return [folder.resolve(name)]
    except PathRefused:
        matched = folder.glob(name)
    if not matched:
        raise PathRefused(f"pattern {name!r} matches no file in the data folder")
    return matched


def _format_of(name: str, asked: str) -> Format:
    if asked != "auto":
        return asked  # type: ignore[return-value]  # one of FORMATS, checked by the schema
    dot = name.rfind(".")
    return _BY_EXTENSION.get(name[dot:].lower(), "text") if dot > name.rfind("/") else "text"


def _decode(name: str, data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _argument_error(
            f"file {name!r} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start} cannot be "
            f'decoded); to read it as bytes, pass {{"path": {json.dumps(name)}, "as": "bytes"}}'
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _records(name: str, text: str, dialect: type[csv.Dialect]) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        return [record for record in reader if record]
    except csv.Error as exc:
        kind = "TSV" if dialect is csv.excel_tab else "CSV"
        raise _argument_error(
            f'file {name!r} could not be parsed as {kind} (line {reader.line_num}: {exc}); pass {{"path": '
            f'{json.dumps(name)}, "as": "text"}} to read it as plain text'
        ) from None


_RECORDS_PER_CHUNK = 2_000


def _records_json(records: list[list[str]]) -> str:
    """``records`` as compact JSON, encoded a chunk at a time: one encoder call over a large list would hold the
    interpreter lock for its whole duration and stall the server's event loop meanwhile."""
    chunks = [
        json.dumps(records[start : start + _RECORDS_PER_CHUNK], ensure_ascii=False, separators=(",", ":"))[1:-1]
        for start in range(0, len(records), _RECORDS_PER_CHUNK)
    ]
    return "[" + ",".join(chunks) + "]"


def _units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, as JavaScript counts it."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def build_payload(folder: DataFolder, selected: Sequence[tuple[DataFile, Format]], max_bytes: int) -> str:
    """Read, decode and parse the selected files into the payload the runtime turns into ``files``.

    Blocking (file reads and parsing): run it in a worker thread.
    """
    manifest: list[dict[str, Any]] = []
    pieces: list[str] = []
    position = 0
    remaining = max_bytes

    def add(piece: str) -> list[int]:
        nonlocal position
        start = position
        position += _units(piece)
        pieces.append(piece)
        return [start, position]

    for file, form in selected:
        data = folder.read(file, remaining)
        remaining -= len(data)
        entry: dict[str, Any] = {"name": file.name, "size": len(data), "type": file.mime_type, "format": form}
        if form == "bytes":
            entry["base64"] = add(base64.b64encode(data).decode("ascii"))
        else:
            text = _decode(file.name, data)
            entry["text"] = add(text)
            if form in ("csv", "tsv"):
                records = _records(file.name, text, csv.excel_tab if form == "tsv" else csv.excel)
                entry["records"] = add(_records_json(records))
        manifest.append(entry)
    return json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n" + "".join(pieces)


# Room kept in a frame for the code, the input and the rest of the run message.
_FRAME_RESERVE = 4 * 1_048_576
# The most bytes one character of the payload can take once JSON-escaped in a frame: an astral character is
# one Python character and two ``\\uXXXX`` escapes.
_WORST_ESCAPE = 12


def check_frame_room(payload: str, reserved: int = _FRAME_RESERVE) -> None:
    """Raise an ArgumentError when ``payload`` would not fit in the frame that carries it to a worker.

    Counting exactly means encoding the payload once more, so it is done only when the cheap bound (every
    character escaped at its worst) does not already show that it fits.
    """
    room = MAX_FRAME_BYTES - reserved
    if len(payload) * _WORST_ESCAPE <= room:
        return
    size = len(json.dumps(payload))
    if size > room:
        raise _argument_error(
            f"the files of this call take {size} bytes once packed for the JavaScript worker, more than the "
            f'{room} bytes one job can carry: pass fewer or smaller files, or read CSV files with "as": "text"'
        )
