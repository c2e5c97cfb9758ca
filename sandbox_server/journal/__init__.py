"""Journals: what a run saw that its code alone does not decide, so that it can be run again, here or on another
replica, and see the same: to resume a run paused for the user's consent, and to rebuild a session from its cells.
"""

from __future__ import annotations

from sandbox_server.journal.host import JournalingHost
from sandbox_server.journal.keys import STATE_KEYS_VARIABLE, HandleRefused, StateKeys, state_keys_from
from sandbox_server.journal.record import CallEntry, JournalError, RunJournal, digest, pack, unpack
from sandbox_server.journal.store import MemoryStore, StateStore, StoreFull, StoreUnavailable
from sandbox_server.journal.stores import open_store

__all__ = [
    "STATE_KEYS_VARIABLE",
    "CallEntry",
    "HandleRefused",
    "JournalError",
    "JournalingHost",
    "MemoryStore",
    "RunJournal",
    "StateKeys",
    "StateStore",
    "StoreFull",
    "StoreUnavailable",
    "digest",
    "open_store",
    "pack",
    "state_keys_from",
    "unpack",
]
