"""What a session is when no isolate holds it: its states in the state store, each the state its parent was in plus
one cell (the cell's code and arguments, and what it saw), and the handles that name them.

A state's record is ``{"parent", "name", "created", "depth", "cell"}``; the session's first record (its root) has no
parent and no cell. A cell that ran but could not be journaled (its journal past ``max_journal_bytes``, the runtime's
record overflowed) is kept with ``"unreplayable"``: the live isolate holds that state, and it cannot be rebuilt.
A handle seals the session's id and the state's: it names one state, and nothing else can be made from it.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from sandbox_server.journal import (
    HandleRefused,
    JournalError,
    RunJournal,
    StateKeys,
    StateStore,
    StoreUnavailable,
    digest,
    pack,
    unpack,
)

__all__ = [
    "CellRecord",
    "Point",
    "SessionLost",
    "StateNotKept",
    "StateRecord",
    "chain",
    "new_id",
    "outcome_digest",
    "read_handle",
    "write_handle",
]

SESSION_ID_BYTES = 16
STATE_ID_BYTES = 8


class SessionLost(Exception):
    """A session state that cannot be had: the handle does not unseal, its state is gone, or it cannot be rebuilt
    faithfully. The message says which, as a sentence a model can act on."""


class StateNotKept(StoreUnavailable):
    """A session call that ran, but whose state the store could not keep: it was not applied. The message says so."""


def new_id(size: int) -> str:
    return os.urandom(size).hex()


@dataclass(frozen=True, slots=True)
class Point:
    """One state of one session."""

    session: str
    state: str


def write_handle(keys: StateKeys, point: Point) -> str:
    """The handle that names ``point``."""
    return keys.seal_handle(bytes.fromhex(point.session) + bytes.fromhex(point.state))


def read_handle(keys: StateKeys, handle: str) -> Point:
    """The state a handle names.

    Raises:
        SessionLost: The handle was not sealed by this server's keys, or was altered.
    """
    try:
        payload = keys.unseal_handle(handle)
    except HandleRefused as exc:
        raise SessionLost(f"this session handle cannot be used: {exc}") from None
    if len(payload) != SESSION_ID_BYTES + STATE_ID_BYTES:
        raise SessionLost("this session handle cannot be used: it was never given by this server")
    return Point(payload[:SESSION_ID_BYTES].hex(), payload[SESSION_ID_BYTES:].hex())


@dataclass(slots=True)
class CellRecord:
    """One applied cell: what ran and what it saw, enough to run it again.

    Attributes:
        tool: The tool that ran it (``execute_js`` or ``execute_js_with_tools``: whether it had ``tools``).
        code, input_json, timeout_ms: The call's arguments.
        files: The call's ``files`` argument, read again when the cell is; ``files_digest`` what it read then.
        journal: What the run saw.
        result: Digest of what it answered: a replay must answer the same.
        unreplayable: Why the cell could not be kept whole, when it could not.
        tools: What the global ``tools`` listed when it ran (None: it had no ``tools``).
    """

    tool: str
    code: str
    input_json: str | None
    timeout_ms: int
    files: Any = None
    files_digest: str | None = None
    journal: RunJournal = field(default_factory=RunJournal)
    result: str = ""
    unreplayable: str | None = None
    tools: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "tool": self.tool,
            "code": self.code,
            "input": self.input_json,
            "timeoutMs": self.timeout_ms,
            "files": self.files,
            "filesDigest": self.files_digest,
            "result": self.result,
        }
        if self.tools is not None:
            value["tools"] = self.tools
        if self.unreplayable is not None:
            value["unreplayable"] = self.unreplayable
        else:
            value["journal"] = self.journal.to_json()
        return value

    @classmethod
    def from_json(cls, value: Any) -> CellRecord:
        if not isinstance(value, dict):
            raise JournalError("a cell record is an object")
        tool, code, input_json, timeout_ms = (
            value.get("tool"),
            value.get("code"),
            value.get("input"),
            value.get("timeoutMs"),
        )
        if not (isinstance(tool, str) and isinstance(code, str) and type(timeout_ms) is int):
            raise JournalError("a cell record lacks its tool, code or time limit")
        if input_json is not None and not isinstance(input_json, str):
            raise JournalError("a cell record's input is JSON text")
        unreplayable = value.get("unreplayable")
        journal = RunJournal() if unreplayable is not None else RunJournal.from_json(value.get("journal"))
        files_digest = value.get("filesDigest")
        tools = value.get("tools")
        if tools is not None and not isinstance(tools, dict):
            raise JournalError("a cell record's tools are an object")
        return cls(
            tool,
            code,
            input_json,
            timeout_ms,
            value.get("files"),
            files_digest if isinstance(files_digest, str) else None,
            journal,
            str(value.get("result", "")),
            str(unreplayable) if unreplayable is not None else None,
            tools,
        )


@dataclass(slots=True)
class StateRecord:
    """One state of a session as the store keeps it."""

    name: str
    created: float
    depth: int
    parent: str | None = None
    cell: CellRecord | None = None

    def pack(self, max_bytes: int) -> bytes:
        value: dict[str, Any] = {"name": self.name, "created": self.created, "depth": self.depth}
        if self.parent is not None:
            value["parent"] = self.parent
        if self.cell is not None:
            value["cell"] = self.cell.to_json()
        return pack(value, max_bytes).encode("ascii")

    @classmethod
    def unpack(cls, data: bytes, max_bytes: int) -> StateRecord:
        value = unpack(data.decode("ascii"), max_bytes)
        if not isinstance(value, dict):
            raise JournalError("a session state is an object")
        name, created, depth, parent = value.get("name"), value.get("created"), value.get("depth"), value.get("parent")
        if not (isinstance(name, str) and isinstance(created, int | float) and type(depth) is int):
            raise JournalError("a session state lacks its name, age or depth")
        if parent is not None and not isinstance(parent, str):
            raise JournalError("a session state's parent is an id")
        cell = CellRecord.from_json(value["cell"]) if "cell" in value else None
        return cls(name, float(created), depth, parent, cell)

    @classmethod
    def root(cls, name: str) -> StateRecord:
        return cls(name, time.time(), 0)


async def chain(store: StateStore, point: Point, max_bytes: int) -> tuple[list[StateRecord], int]:
    """The records from the session's root to ``point``'s state, in order, and their size in bytes.

    Raises:
        SessionLost: The session or one of its states is gone, or a record is unreadable.
    """
    states = await store.states(point.session)
    if point.state not in states:
        raise SessionLost(
            "the session state this names is gone: sessions end after going unused for their idle time "
            "(session_idle_timeout_s), or when the server that kept them in memory restarts. Start a new session"
        )
    records: list[StateRecord] = []
    size = 0
    state: str | None = point.state
    while state is not None:
        data = states.get(state)
        if data is None or len(records) > len(states):
            raise SessionLost("the session's journal is incomplete; start a new session")
        try:
            record = StateRecord.unpack(data, max_bytes)
        except JournalError as exc:
            raise SessionLost(f"the session's journal is unreadable ({exc}); start a new session") from None
        records.append(record)
        size += len(data)
        state = record.parent
    records.reverse()
    return records, size


_COMPARED = ("ok", "resultText", "result", "stdout", "stderr")


def outcome_digest(outcome: dict[str, Any]) -> str:
    """What a replayed cell must answer the same: its result, output and error."""
    error = outcome.get("error")
    failure = (error.get("kind"), error.get("name"), error.get("message")) if isinstance(error, dict) else None
    return digest([[outcome.get(key) for key in _COMPARED], failure])
