"""Messages between the pool and a worker process, and how they are framed on the pipes.

Each message is one JSON object, sent as a frame: a 4-byte big-endian length, then that many bytes of
UTF-8 JSON (ASCII in practice: non-ASCII characters and lone surrogates travel as ``\\u`` escapes, so any
JavaScript string survives the trip). The pool writes to the worker's stdin; the worker answers on a
private copy of its original stdout.

Pool -> worker::

    {"op": "run", "id": 7, "code": "1 + 1", "input": "<JSON text or empty>", "timeoutMs": 5000,
     "files": "<files payload or empty>"}

A long text field (``input`` and ``files`` of a run request, which can be megabytes) travels after its message
instead of inside it: the message lists the fields in ``attached`` (``"attached": ["input"]``), and one frame
follows for each, in that order, holding the field's text as UTF-8 (lone surrogates as their three bytes), neither
escaped nor parsed. The receiving side puts the fields back, so both sides deal in the same message.

Pool -> worker, during a job that may call the host::

    {"op": "hostResult", "id": 7, "call": 3, "ok": true, "value": ...}        or "ok": false, "error": {...}

Worker -> pool::

    {"op": "ready", "v8": "14.4.258.23", "miniRacer": "0.14.1"}   at start-up and after each job, once a
                                                                  fresh isolate is prepared
    {"op": "outcome", "id": 7, "ok": true, ...}                   the job's Outcome, plus op and id
    {"op": "host", "id": 7, "call": 3, "kind": "fs.read", "payload": {...}}   a call the running code makes to
                                                                  the host (see Job.host)
"""

from __future__ import annotations

import contextvars
import json
import re
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from sandbox_server.errors import SandboxError
from sandbox_server.sandbox.limits import setting_default
from sandbox_server.sandbox.outcome import Outcome

__all__ = [
    "ATTACHABLE_FIELDS",
    "CURRENT_HOST_CALL",
    "HEADER",
    "MAX_FRAME_BYTES",
    "PRIME_MESSAGE",
    "HostCallFailed",
    "HostHandler",
    "HostService",
    "Job",
    "ProtocolError",
    "RunControl",
    "attach_fields",
    "decode_frame",
    "encode_frame",
    "encode_frames",
    "frame_length",
    "iter_frames",
    "may_hold_surrogates",
    "outcome_from_message",
    "outcome_message",
    "ready_message",
    "run_message",
    "single_frame",
    "well_formed",
]

HEADER = struct.Struct(">I")
"""The length prefix of every frame."""

MAX_FRAME_BYTES = 256 * 1024 * 1024
"""Largest frame either side accepts; a longer announced length means the stream is corrupt."""


CURRENT_HOST_CALL: contextvars.ContextVar[int] = contextvars.ContextVar("sandbox_host_call", default=0)
"""The id the running code gave the host call being answered (the runtime counts them from 1 in each run), for the
services that journal calls or answer them by id; 0 outside a host call."""


class ProtocolError(SandboxError):
    """A frame or message from the other side could not be read."""


class HostHandler(Protocol):
    """Answers one call the running code makes to the host: the value, or raises :class:`HostCallFailed`."""

    async def __call__(self, kind: str, payload: Any) -> Any: ...


class HostCallFailed(SandboxError):
    """A host call the code made failed or was refused; ``error`` is what the code's promise rejects with
    (``name``, ``message`` and any further fields, as plain JSON values)."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(str(error.get("message")))
        self.error = error


@dataclass(frozen=True, slots=True)
class HostService:
    """What a job's code may ask of the host, and within which limits.

    Attributes:
        handler: Answers each call.
        calls: Calls one execution may make in all; ``calls_setting`` is the setting that sets it.
        in_flight: Calls that may be in progress at once (more wait in the worker).
        request_bytes: Largest request (as JSON text) a call may send; ``request_setting`` is the setting that sets it.
    """

    handler: HostHandler
    calls: int
    calls_setting: str
    in_flight: int
    request_bytes: int
    request_setting: str = "max_tool_argument_bytes"

    def limits_message(self) -> dict[str, Any]:
        """The limits as a run request carries them."""
        return {
            "calls": self.calls,
            "callsSetting": self.calls_setting,
            "inFlight": self.in_flight,
            "requestBytes": self.request_bytes,
            "requestSetting": self.request_setting,
        }


class RunControl:
    """A hold on one job while it runs: :meth:`pause` asks its worker to stop it and answer with its journal (an
    outcome of kind ``paused``), so that it can be run again from the start once the user has answered."""

    def __init__(self) -> None:
        self._pause: Callable[[], None] | None = None
        self.pause_requested = False

    def pause(self) -> None:
        """Stop the job now (or as soon as it is running) with its journal."""
        self.pause_requested = True
        if self._pause is not None:
            self._pause()

    def attach(self, pause: Callable[[], None]) -> None:
        """Called by the pool when the job runs: ``pause`` sends the request to its worker."""
        self._pause = pause
        if self.pause_requested:
            pause()

    def detach(self) -> None:
        self._pause = None


@dataclass(frozen=True, slots=True)
class Job:
    """One execution to run.

    Attributes:
        code: The JavaScript source.
        input_json: JSON text made available to the code as the global ``input``; None for no input.
        timeout_ms: The wall-clock limit of the execution in milliseconds; by default the server's.
        files_payload: The data-folder files the code may read as the global ``files``, packed as
            :func:`sandbox_server.data.files.build_payload` describes; None for none.
        host: What the code may ask of the host while it runs, and within which limits; None for nothing.
        data_folder: Whether the server shares a data folder (Node's fs then reads from it).
        tools: What the global ``tools`` lists (``{"servers": [{"name", "tools", "unavailable"}]}``): the other
            MCP servers' tools the code may call through ``host``; None for no global ``tools``.
        keep: Keep the isolate after the job for the next one (a session's worker); its outcome then says how many
            runs the isolate has had (``isolateRuns``) and the heap in use when the job began (``heapBytes``,
            read after the previous job, off the call's path).
        charts: Whether the server can render charts and SVG, so that ``display()`` takes them (PNG and JPEG bytes
            it takes always).
        cell: Run the code as a session's cell: its top-level declarations become the isolate's globals, and may be
            declared again by a later cell.
        journal: Record the run's nondeterminism and replay this prefix first (``seed``, ``random``, ``clock``,
            ``events``, optionally ``memory``; see ``js_runtime/journal.js``); its outcome then carries ``journal``.
        control: Lets the caller pause the job while it runs (see :class:`RunControl`).
        packages: Where the npm packages the code may import are (``{"dir", "lock"}``: the packages folder and the
            digest of the lock the server started with); None when none were added.
    """

    code: str
    input_json: str | None = None
    timeout_ms: int = field(default_factory=setting_default("DEFAULT_TIMEOUT_MS"))
    files_payload: str | None = None
    host: HostService | None = None
    data_folder: bool = False
    tools: Mapping[str, Any] | None = None
    keep: bool = False
    cell: bool = False
    charts: bool = False
    journal: Mapping[str, Any] | None = None
    control: RunControl | None = field(default=None, compare=False)
    packages: Mapping[str, str] | None = None

    def __post_init__(self) -> None:
        if self.timeout_ms < 1:
            raise ValueError(f"timeout_ms must be positive, not {self.timeout_ms}")


def encode_frame(message: Mapping[str, Any]) -> bytes:
    """Serialise ``message`` as one frame (header and body)."""
    body = json.dumps(message, separators=(",", ":")).encode("ascii")
    if len(body) > MAX_FRAME_BYTES:
        raise ProtocolError(f"message of {len(body)} bytes exceeds the frame limit of {MAX_FRAME_BYTES} bytes")
    return HEADER.pack(len(body)) + body


ATTACHABLE_FIELDS = ("input", "files", "value", "displays")
"""Fields of a run request that travel as frames of their own when they are long."""
ATTACH_FROM_CHARS = 4096
"""Texts shorter than this stay inside the message, where escaping them costs less than a frame of their own."""


def encode_frames(message: Mapping[str, Any]) -> list[bytes]:
    """``message`` as frames: the message without its long text fields, then one frame for each of them.

    Each piece is a separate bytes object (header and body apart); see :func:`iter_frames` for the pieces one at a
    time, which never holds a long field's encoding whole.
    """
    return list(iter_frames(message, chunk_chars=None))


ENCODE_CHUNK_CHARS = 1 << 20
"""Characters of a long field encoded to UTF-8 at a time by :func:`iter_frames`."""


def _attached(message: Mapping[str, Any]) -> list[str]:
    """The fields of ``message`` long enough to travel in frames of their own."""
    return [
        name
        for name in ATTACHABLE_FIELDS
        if isinstance(message.get(name), str) and len(message[name]) >= ATTACH_FROM_CHARS
    ]


def single_frame(message: Mapping[str, Any]) -> bytes | None:
    """``message`` as one frame, or None when a long field goes in frames of its own (see :func:`iter_frames`)."""
    return None if _attached(message) else encode_frame(message)


def iter_frames(message: Mapping[str, Any], chunk_chars: int | None = ENCODE_CHUNK_CHARS) -> Iterator[bytes]:
    """The pieces of :func:`encode_frames`, made one at a time: with ``chunk_chars``, a long field's frame body
    comes as the UTF-8 of ``chunk_chars`` characters at a time (its header first, from its length measured ahead),
    so that a writer that copies each piece on (a pipe's buffer) never needs the field's whole encoding besides.

    Raises:
        ProtocolError: A frame would be longer than :data:`MAX_FRAME_BYTES` (before any piece is made).
    """
    attached = _attached(message)
    if not attached:
        yield encode_frame(message)
        return
    head = {key: value for key, value in message.items() if key not in attached}
    head["attached"] = attached
    texts = [message[name] for name in attached]
    lengths = [_utf8_length(text) for text in texts]
    for name, length in zip(attached, lengths, strict=True):
        if length > MAX_FRAME_BYTES:
            raise ProtocolError(f"field {name} of {length} bytes exceeds the frame limit of {MAX_FRAME_BYTES}")
    yield encode_frame(head)
    for text, length in zip(texts, lengths, strict=True):
        yield HEADER.pack(length)
        step = len(text) if chunk_chars is None else chunk_chars
        for start in range(0, len(text), step or 1):
            yield text[start : start + step].encode("utf-8", "surrogatepass")


def _utf8_length(text: str) -> int:
    """Bytes of ``text`` as UTF-8 (lone surrogates as three), measured a slice at a time unless it is ASCII."""
    if text.isascii():
        return len(text)
    return sum(
        len(text[start : start + ENCODE_CHUNK_CHARS].encode("utf-8", "surrogatepass"))
        for start in range(0, len(text), ENCODE_CHUNK_CHARS)
    )


def attach_fields(message: dict[str, Any], bodies: list[bytes]) -> dict[str, Any]:
    """Put the fields that travelled after ``message`` (their frame bodies, in order) back into it."""
    names = message.pop("attached")
    if not isinstance(names, list) or len(names) != len(bodies) or not set(names) <= set(ATTACHABLE_FIELDS):
        raise ProtocolError("the message's attached fields do not match the frames that followed it")
    for name, body in zip(names, bodies, strict=True):
        try:
            message[name] = body.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"attached field {name} is not UTF-8: {exc}") from exc
    return message


def frame_length(header: bytes | bytearray) -> int:
    """The body length announced by a frame header; raises ProtocolError when it is out of range."""
    (length,) = HEADER.unpack(header)
    if length > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame announces {length} bytes, more than the limit of {MAX_FRAME_BYTES}")
    return cast("int", length)


def decode_frame(body: bytes) -> dict[str, Any]:
    """Parse a frame body into a message; raises ProtocolError unless it is a JSON object with an ``op``."""
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ProtocolError(f"frame is not valid JSON: {exc}") from exc
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ProtocolError("frame is not a message object with an 'op'")
    return message


# Raw UTF-8 cannot hold a surrogate, so one reaches a decoded string only through a ``\\uD800``-``\\uDFFF``
# escape; JSON decoding joins an escaped pair into one character, so what remains is a lone surrogate.
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def may_hold_surrogates(body: bytes) -> bool:
    """Whether the message decoded from the frame ``body`` may hold a lone surrogate (a cheap, inexact check)."""
    return _ESCAPED_SURROGATE.search(body) is not None


def well_formed(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings, keys included, replaced by U+FFFD.

    JavaScript strings may hold lone surrogates (half of an emoji cut by ``slice``); UTF-8 cannot encode them,
    and a single one in a tool result would make the transport fail to send the response.
    """
    if isinstance(value, str):
        return value if value.isascii() else _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [well_formed(item) for item in value]
    if isinstance(value, dict):
        return {well_formed(key): well_formed(item) for key, item in value.items()}
    return value


def run_message(job_id: int, job: Job, backlog: int = 0, spare: int = 0) -> dict[str, Any]:
    """The request asking a worker to run ``job``; ``backlog`` is how many jobs wait in the pool behind it, ``spare``
    how many other workers were free for the next one when it was sent."""
    return (
        {
            "op": "run",
            "id": job_id,
            "code": job.code,
            "input": "" if job.input_json is None else job.input_json,
            "timeoutMs": job.timeout_ms,
            "files": "" if job.files_payload is None else job.files_payload,
            "backlog": backlog,
        }
        | ({"spare": spare} if spare else {})
        | ({} if job.host is None else {"host": job.host.limits_message()})
        | ({"dataFolder": True} if job.data_folder else {})
        | ({} if job.tools is None else {"tools": dict(job.tools)})
        | ({"keep": True} if job.keep else {})
        | ({"cell": True} if job.cell else {})
        | ({"charts": True} if job.charts else {})
        | ({} if job.journal is None else {"journal": dict(job.journal)})
        | ({} if job.packages is None else {"packages": dict(job.packages)})
    )


PRIME_MESSAGE: dict[str, Any] = {"op": "prime"}
"""The hint to an idle worker that a job is about to come (:meth:`~sandbox_server.sandbox.pool.WorkerPool.prime`)."""


def ready_message(v8_version: str, mini_racer_version: str) -> dict[str, Any]:
    """The announcement that a worker has a fresh isolate and can take a job."""
    return {"op": "ready", "v8": v8_version, "miniRacer": mini_racer_version}


def outcome_message(job_id: int, outcome: Outcome) -> dict[str, Any]:
    """The answer to run request ``job_id``."""
    return {**outcome, "op": "outcome", "id": job_id}


def outcome_from_message(message: Mapping[str, Any]) -> Outcome:
    """The Outcome carried by an ``outcome`` message (the message without ``op`` and ``id``)."""
    outcome = {key: value for key, value in message.items() if key not in ("op", "id")}
    if not isinstance(outcome.get("ok"), bool) or "error" not in outcome:
        raise ProtocolError("outcome message lacks 'ok' or 'error'")
    return cast("Outcome", outcome)
