"""What one execution saw that its code alone does not decide, so that it can be run again and see the same.

A :class:`RunJournal` holds the run's seeds (``Math.random``'s and crypto's), the runtime's record of clock readings
and order of events (``js_runtime/journal.js``), the heap reading ``process.memoryUsage()`` gave, and, by host call
id, what each call to the host asked and was answered. Run again with it, the code sees the same values, so it asks
the same calls in the same order; those already answered are answered from the journal, never made again (an
upstream tool's answer is kept whole; a data-folder read keeps only a digest, and is read again and compared).

The journal travels as compact JSON, compressed (:func:`pack` / :func:`unpack`), inside a sealed ``requestState`` or
in the state store; :func:`unpack` trusts nothing and refuses anything that is not a journal it could have written.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DIGEST_ONLY_PREFIXES",
    "CallEntry",
    "JournalError",
    "RunJournal",
    "digest",
    "pack",
    "unpack",
]

DIGEST_ONLY_PREFIXES = ("fs.",)
"""Host calls whose answers the journal keeps as a digest only: reading them again changes nothing, and they can be
large (a data-folder file)."""

MAX_PACKED_INPUT_BYTES = 64 * 2**20
"""Most bytes :func:`unpack` inflates, whatever the journal's own bound: a guard against a compression bomb."""


class JournalError(Exception):
    """A journal that cannot be used: unreadable, over its bound, or not what this server writes."""


def digest(value: Any) -> str:
    """A short, stable digest of a JSON value (canonical JSON, SHA-256, 128 bits as hex)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:32]


@dataclass(slots=True)
class CallEntry:
    """One host call as the journal keeps it.

    Attributes:
        kind: The call's kind (``tools.call``, ``fs.readFile``...).
        asked: Digest of its kind and payload: a later run's call under the same id must ask the same.
        answer: The answer (``{"ok": true, "value": ...}`` or ``{"ok": false, "error": {...}}``), or None when only
            its digest is kept.
        answer_digest: Digest of the answer, when only that is kept.
        record: The call as the result's ``calls`` list showed it (upstream tool calls only).
    """

    kind: str
    asked: str
    answer: dict[str, Any] | None = None
    answer_digest: str | None = None
    record: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {"kind": self.kind, "asked": self.asked}
        if self.answer is not None:
            value["answer"] = self.answer
        if self.answer_digest is not None:
            value["answerDigest"] = self.answer_digest
        if self.record is not None:
            value["record"] = self.record
        return value

    @classmethod
    def from_json(cls, value: Any) -> CallEntry:
        if (
            not isinstance(value, dict)
            or not isinstance(value.get("kind"), str)
            or not isinstance(value.get("asked"), str)
        ):
            raise JournalError("a call entry lacks its kind or what it asked")
        answer, answer_digest, record = value.get("answer"), value.get("answerDigest"), value.get("record")
        if answer is not None and not (isinstance(answer, dict) and isinstance(answer.get("ok"), bool)):
            raise JournalError("a call entry's answer is not an answer")
        if answer_digest is not None and not isinstance(answer_digest, str):
            raise JournalError("a call entry's answer digest is not text")
        if (answer is None) == (answer_digest is None):
            raise JournalError("a call entry keeps either its answer or its digest")
        if record is not None and not isinstance(record, dict):
            raise JournalError("a call entry's record is not an object")
        return cls(value["kind"], value["asked"], answer, answer_digest, record)


def _hex(size: int) -> str:
    return os.urandom(size).hex()


@dataclass(slots=True)
class RunJournal:
    """One execution's journal (see the module docstring).

    Attributes:
        seed: 64 hex digits: crypto's random bytes.
        random: 32 hex digits: ``Math.random``'s generator.
        clock: The runtime's clock readings, as ``[difference, count]`` pairs, flat.
        events: The runtime's order of events (timer ids, negated host call ids).
        memory: The heap reading ``process.memoryUsage()`` gave, if the run asked for it.
        calls: Host calls by id.
        consent: The user's answers to requests for consent, by host call id.
        asked: The calls a paused run asked consent for, by id: the digest of what each asked.
        overflow: The runtime's record went past its bound: the run cannot be done again faithfully.
    """

    seed: str = field(default_factory=lambda: _hex(32))
    random: str = field(default_factory=lambda: _hex(16))
    clock: list[int] = field(default_factory=list)
    events: list[int] = field(default_factory=list)
    memory: dict[str, int] | None = None
    calls: dict[int, CallEntry] = field(default_factory=dict)
    consent: dict[int, str] = field(default_factory=dict)
    asked: dict[int, str] = field(default_factory=dict)
    overflow: bool = False

    def worker_spec(self) -> dict[str, Any]:
        """What the worker is sent with the run (``Job.journal``)."""
        spec: dict[str, Any] = {"seed": self.seed, "random": self.random, "clock": self.clock, "events": self.events}
        if self.memory is not None:
            spec["memory"] = self.memory
        return spec

    def take_runtime_record(self, record: Any) -> None:
        """Keep the runtime's record from a run's outcome (``Outcome["journal"]``)."""
        if not isinstance(record, dict):
            self.overflow = True
            return
        self.clock = [int(item) for item in record.get("clock", [])]
        self.events = [int(item) for item in record.get("events", [])]
        self.overflow = self.overflow or record.get("overflow") is True
        memory = record.get("memory")
        if isinstance(memory, dict):
            self.memory = {"used": int(memory["used"]), "total": int(memory["total"])}

    def to_json(self) -> dict[str, Any]:
        value: dict[str, Any] = {
            "seed": self.seed,
            "random": self.random,
            "clock": self.clock,
            "events": self.events,
            "calls": {str(call): entry.to_json() for call, entry in self.calls.items()},
        }
        if self.memory is not None:
            value["memory"] = self.memory
        if self.consent:
            value["consent"] = {str(call): answer for call, answer in self.consent.items()}
        if self.asked:
            value["asked"] = {str(call): asked for call, asked in self.asked.items()}
        if self.overflow:
            value["overflow"] = True
        return value

    @classmethod
    def from_json(cls, value: Any) -> RunJournal:
        if not isinstance(value, dict):
            raise JournalError("a journal is an object")
        seed, random = value.get("seed"), value.get("random")
        if not (_is_hex(seed, 64) and _is_hex(random, 32)):
            raise JournalError("a journal's seeds are not what this server writes")
        clock, events = value.get("clock"), value.get("events")
        if not (_int_list(clock) and _int_list(events)):
            raise JournalError("a journal's clock and events are lists of integers")
        memory = value.get("memory")
        if memory is not None and not (
            isinstance(memory, dict) and all(type(memory.get(key)) is int for key in ("used", "total"))
        ):
            raise JournalError("a journal's heap reading is not one")
        journal = cls(str(seed), str(random), list(clock or ()), list(events or ()), memory)
        journal.overflow = value.get("overflow") is True
        journal.calls = {_call_id(key): CallEntry.from_json(entry) for key, entry in _object(value, "calls").items()}
        consent = _object(value, "consent")
        if not all(answer in ("accept", "decline", "cancel") for answer in consent.values()):
            raise JournalError("a journal's consent answers are accept, decline or cancel")
        journal.consent = {_call_id(key): str(answer) for key, answer in consent.items()}
        asked = _object(value, "asked")
        if not all(isinstance(item, str) for item in asked.values()):
            raise JournalError("a journal's requests for consent are digests")
        journal.asked = {_call_id(key): str(item) for key, item in asked.items()}
        return journal


def _is_hex(value: Any, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and all(char in "0123456789abcdef" for char in value)


def _int_list(value: Any) -> bool:
    return isinstance(value, list) and all(type(item) is int for item in value)


def _object(value: dict[str, Any], key: str) -> dict[str, Any]:
    found = value.get(key, {})
    if not isinstance(found, dict):
        raise JournalError(f"a journal's {key} is an object")
    return found


def _call_id(key: Any) -> int:
    if not isinstance(key, str) or not key.isdigit() or len(key) > 9:
        raise JournalError("a journal's call ids are positive integers")
    return int(key)


def pack(value: Any, max_bytes: int) -> str:
    """``value`` as compressed JSON in URL-safe base64.

    Raises:
        JournalError: The JSON is larger than ``max_bytes``.
    """
    data = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode(
        "utf-8", "surrogatepass"
    )
    if len(data) > max_bytes:
        raise JournalError(f"the journal is {len(data)} bytes, more than the {max_bytes} bytes it may be")
    return base64.urlsafe_b64encode(zlib.compress(data, 6)).decode("ascii")


def unpack(text: str, max_bytes: int) -> Any:
    """The value :func:`pack` packed into ``text``.

    Raises:
        JournalError: ``text`` is not such a value, or it inflates past ``max_bytes``.
    """
    try:
        compressed = base64.urlsafe_b64decode(text.encode("ascii"))
        inflater = zlib.decompressobj()
        limit = min(max_bytes, MAX_PACKED_INPUT_BYTES)
        data = inflater.decompress(compressed, limit + 1)
        if len(data) > limit or inflater.unconsumed_tail:
            raise JournalError(f"the journal inflates past the {limit} bytes it may be")
        return json.loads(data.decode("utf-8", "surrogatepass"))
    except JournalError:
        raise
    except (ValueError, UnicodeError, zlib.error) as exc:
        raise JournalError(f"the journal is unreadable: {exc}") from None
