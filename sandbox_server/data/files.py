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

Host memory per call is bounded by the bytes read: CSV is parsed a row at a time and its records encoded to JSON
a few thousand rows at a time, so no file is ever held as Python lists of rows; :func:`build_payload` says what the
peak is (:data:`PEAK_MEMORY_FACTOR` times the files' bytes for Latin-1 text). Encoding in chunks also lets the
event loop's thread take the interpreter lock between them. All of it runs in a worker thread that asks a
:data:`~sandbox_server.data.folder.Stop` between files, read chunks and record chunks, so a cancelled call's
work ends within one of them.
"""

from __future__ import annotations

import base64
import codecs
import csv
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sandbox_server.data.folder import DataFile, DataFolder, Interrupted, Stop, is_pattern, never
from sandbox_server.errors import ArgumentError, PathRefused
from sandbox_server.sandbox.protocol import MAX_FRAME_BYTES

__all__ = [
    "FORMATS",
    "PEAK_MEMORY_FACTOR",
    "FileRequest",
    "FilesLimits",
    "build_payload",
    "check_frame_room",
    "parse_requests",
    "select",
]

FORMATS = ("auto", "text", "csv", "tsv", "json", "bytes")
"""How a file may be asked for: ``auto`` picks csv, tsv or json by extension, text otherwise."""

Format = Literal["text", "csv", "tsv", "json", "bytes"]

_BY_EXTENSION: dict[str, Format] = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json"}

PEAK_MEMORY_FACTOR = 9
"""Most that :func:`build_payload` grows the process by, as a multiple of the bytes it reads, for files whose
text is Latin-1 (ASCII included) and for bytes; see its description for the measurements and wider characters."""

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


def select(
    folder: DataFolder, requests: Sequence[FileRequest], limits: FilesLimits, stop: Stop = never
) -> list[tuple[DataFile, Format]]:
    """The files the requests name, each once, in order, with the format to read it in; checks the caps.

    Args:
        folder: Where the files are.
        requests: The ``files`` argument as :func:`parse_requests` reads it.
        limits: The caps of the call.
        stop: Asked between the entries a pattern walks; see :class:`~sandbox_server.data.folder.Interrupted`.

    Raises:
        PathRefused: A name is refused, or a pattern matches nothing.
        ArgumentError: More files than ``limits.max_files``, or more bytes than ``limits.max_bytes``.
        Interrupted: ``stop`` said the request has ended.
    """
    chosen: dict[str, tuple[DataFile, Format]] = {}
    for request in requests:
        matched = False
        for file in _named(folder, request.path, stop):
            matched = True
            if file.name not in chosen:
                chosen[file.name] = (file, _format_of(file.name, request.format))
            if len(chosen) > limits.max_files:
                raise _argument_error(
                    f"files names more than {limits.max_files} files; at most {limits.max_files} files can be passed "
                    "in one call (max_files): name fewer files or narrow the pattern"
                )
        if not matched:
            raise PathRefused(f"pattern {request.path!r} matches no file in the data folder")
    total = sum(file.size for file, _ in chosen.values())
    if total > limits.max_bytes:
        largest = max(chosen.values(), key=lambda pair: pair[0].size)[0]
        raise _argument_error(
            f"files total {total} bytes (the largest, {largest.name!r}, is {largest.size} bytes); at most "
            f"{limits.max_bytes} bytes can be passed in one call (max_files_bytes): pass fewer or smaller files"
        )
    return list(chosen.values())


def _named(folder: DataFolder, name: str, stop: Stop) -> Iterator[DataFile]:
    """The files ``name`` stands for: the file of that name when there is one (``report[1].csv`` can be a
    plain name), otherwise, for a name with pattern characters, every file it matches, found one at a time so
    that the count cap ends a walk that would find too many."""
    if not is_pattern(name):
        return iter([folder.resolve(name)])
    try:
        return iter([folder.resolve(name)])
    except PathRefused:
        return folder.matching(name, stop=stop)


def _format_of(name: str, asked: str) -> Format:
    if asked != "auto":
        return asked  # type: ignore[return-value]  # one of FORMATS, checked by the schema
    dot = name.rfind(".")
    return _BY_EXTENSION.get(name[dot:].lower(), "text") if dot > name.rfind("/") else "text"


def _decode(name: str, data: bytes) -> str:
    # A byte order mark is skipped before decoding rather than cut off after, which would copy the text.
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return str(memoryview(data)[skip:], "utf-8")
    except UnicodeDecodeError as exc:
        offset = skip + exc.start
        raise _argument_error(
            f"file {name!r} is not UTF-8 text (byte 0x{data[offset]:02x} at offset {offset} cannot be "
            f'decoded); to read it as bytes, pass {{"path": {json.dumps(name)}, "as": "bytes"}}'
        ) from None


_CSV_BLOCK_CHARS = 1 << 20
"""Characters of text split into lines at a time for the CSV reader: an ``io.StringIO`` over the whole text would
hold a copy of it at four bytes per character."""
_RECORDS_PER_CHUNK = 2_000
"""Records encoded to JSON at a time: one encoder call over a large list would hold the interpreter lock for its
whole duration and stall the server's event loop meanwhile."""
_LINE_END = re.compile("\r\n?|\n")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` with their ends, split at ``\\n``, ``\\r`` and ``\\r\\n`` as the csv module expects.

    Splitting is ``io.StringIO``'s (fast, in C), over slices of about :data:`_CSV_BLOCK_CHARS` characters that
    end at a line end (never between ``\\r`` and ``\\n``); a line longer than that is passed on as it is.
    """
    start = 0
    while start < len(text):
        limit = min(start + _CSV_BLOCK_CHARS, len(text)) - 1
        found = _LINE_END.search(text, limit)
        end = len(text) if found is None else found.end()
        if end - start <= 2 * _CSV_BLOCK_CHARS:
            yield from io.StringIO(text[start:end], newline="")
            start = end
            continue
        # Past the last line end before ``limit`` there is just one line, too long to copy into a StringIO.
        cut = max(text.rfind("\n", start, limit), text.rfind("\r", start, limit)) + 1
        if cut > start:
            if text[cut - 1] == "\r" and text.startswith("\n", cut):
                cut += 1
            yield from io.StringIO(text[start:cut], newline="")
        if cut < end:
            yield text[max(cut, start) : end]
        start = end


def _records_json(name: str, text: str, dialect: type[csv.Dialect], stop: Stop) -> Iterator[str]:
    """The CSV records of ``text`` (empty lines skipped) as one compact JSON array, in pieces of a few thousand
    records: no more than one piece's worth of rows exists as Python lists at any time."""
    reader = csv.reader(_lines(text), dialect)
    yield "["
    first = True
    batch: list[list[str]] = []
    try:
        for record in reader:
            if record:
                batch.append(record)
            if len(batch) == _RECORDS_PER_CHUNK:
                if stop():
                    raise Interrupted
                yield ("" if first else ",") + json.dumps(batch, ensure_ascii=False, separators=(",", ":"))[1:-1]
                first = False
                batch.clear()
    except csv.Error as exc:
        kind = "TSV" if dialect is csv.excel_tab else "CSV"
        raise _argument_error(
            f'file {name!r} could not be parsed as {kind} (line {reader.line_num}: {exc}); pass {{"path": '
            f'{json.dumps(name)}, "as": "text"}} to read it as plain text'
        ) from None
    if batch:
        yield ("" if first else ",") + json.dumps(batch, ensure_ascii=False, separators=(",", ":"))[1:-1]
    yield "]"


_BASE64_CHUNK_BYTES = 3 << 20
"""Bytes encoded to base64 at a time (a multiple of 3, so the pieces join without padding in between)."""


def _base64(data: bytes) -> Iterator[str]:
    view = memoryview(data)
    for start in range(0, len(data), _BASE64_CHUNK_BYTES):
        yield base64.b64encode(view[start : start + _BASE64_CHUNK_BYTES]).decode("ascii")


_UNITS_CHUNK = 1 << 20


def _units(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, as JavaScript counts it (measured a slice at a time, so that a large
    text is never encoded whole)."""
    if text.isascii():
        return len(text)
    return sum(
        len(text[start : start + _UNITS_CHUNK].encode("utf-16-le")) // 2 for start in range(0, len(text), _UNITS_CHUNK)
    )


def build_payload(
    folder: DataFolder,
    selected: Sequence[tuple[DataFile, Format]],
    max_bytes: int,
    stop: Stop = never,
    fs_files: Sequence[DataFile] = (),
    fs_entries: Sequence[dict[str, Any]] = (),
) -> str:
    """Read, decode and parse the selected files into the payload the runtime turns into ``files``.

    Blocking (file reads and parsing): run it in a worker thread. ``stop`` is asked between files, read
    chunks and record pieces; see :class:`~sandbox_server.data.folder.Interrupted`. ``fs_files`` (as bytes) and
    ``fs_entries`` (folders and missing names) are what Node's fs answers synchronously from (see
    :mod:`sandbox_server.data.nodefs`); their manifest entries are marked ``fs`` and are not part of ``files``.

    Memory: a file's bytes are dropped once decoded, CSV rows exist as Python lists a few thousand at a time (the
    records are JSON text from then on), and the pieces are joined once, so the peak is the pieces and the payload
    together: about twice the payload. Measured growth of a fresh process's peak resident size, as a multiple of
    the bytes of one 16 MiB file (:data:`PEAK_MEMORY_FACTOR` bounds these): a one-column CSV of ``x`` lines 8.4
    (its payload is 4 characters per byte: the text, and ``["x"],`` for every two bytes), a CSV of 200 one-digit
    columns 6.8, JSON 2.0, bytes 2.8 (base64 is 4/3 of them). CPython keeps a string at one byte per character
    when all of them are Latin-1, two or four otherwise, and the payload at the width of its widest character:
    one character beyond U+FFFF in ASCII text makes it four times as large (23 for that one-column CSV).
    """
    manifest: list[dict[str, Any]] = []
    pieces: list[str] = []
    position = 0
    remaining = max_bytes

    def add(parts: Iterable[str]) -> list[int]:
        nonlocal position
        start = position
        for part in parts:
            position += _units(part)
            pieces.append(part)
        return [start, position]

    for file, form in selected:
        if stop():
            raise Interrupted
        data = folder.read(file, remaining, stop=stop)
        remaining -= len(data)
        entry: dict[str, Any] = {"name": file.name, "size": len(data), "type": file.mime_type, "format": form}
        if form == "bytes":
            entry["base64"] = add(_base64(data))
            del data
        else:
            text = _decode(file.name, data)
            del data  # the bytes are not needed once decoded, and would double what a large file holds
            entry["text"] = add([text])
            if form in ("csv", "tsv"):
                dialect = csv.excel_tab if form == "tsv" else csv.excel
                entry["records"] = add(_records_json(file.name, text, dialect, stop))
            del text
        manifest.append(entry)
    for file in fs_files:
        if stop():
            raise Interrupted
        data = folder.read(file, file.size, stop=stop)
        base64_range = add(_base64(data))
        del data
        manifest.append(
            {
                "name": file.name,
                "size": file.size,
                "type": file.mime_type,
                "format": "bytes",
                "fs": True,
                "base64": base64_range,
            }
        )
    manifest.extend(fs_entries)
    # The manifest goes in front of the pieces, not before their join, so the body is copied once, not twice.
    pieces.insert(0, json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n")
    return "".join(pieces)


# Room kept in a frame for the code, the input and the rest of the run message.
_FRAME_RESERVE = 4 * 1_048_576
# The most bytes one character of the payload can take once JSON-escaped in a frame: an astral character is
# one Python character and two ``\\uXXXX`` escapes.
_WORST_ESCAPE = 12
_ESCAPE_CHUNK = 1 << 20


def check_frame_room(payload: str, reserved: int = _FRAME_RESERVE) -> None:
    """Raise an ArgumentError when ``payload`` would not fit in the frame that carries it to a worker.

    Counting exactly means escaping the payload as the frame does, so it is done only when the cheap bound (every
    character escaped at its worst) does not already show that it fits, and a slice at a time, so that the escaped
    text is never held whole.
    """
    room = MAX_FRAME_BYTES - reserved
    if len(payload) * _WORST_ESCAPE <= room:
        return
    # Every slice's encoding has its own two quotes; the whole has two.
    size = 2 + sum(
        len(json.dumps(payload[start : start + _ESCAPE_CHUNK])) - 2 for start in range(0, len(payload), _ESCAPE_CHUNK)
    )
    if size > room:
        raise _argument_error(
            f"the files of this call take {size} bytes once packed for the JavaScript worker, more than the "
            f'{room} bytes one job can carry: pass fewer or smaller files, or read CSV files with "as": "text"'
        )
