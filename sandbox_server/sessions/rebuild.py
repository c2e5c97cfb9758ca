"""Rebuilding a session from its journal: its cells run again, in order, in a fresh isolate, each with what it saw.

Each cell runs with its journal (:mod:`sandbox_server.journal`): the same seeds, clock readings and order of events,
its upstream calls answered from the journal (never made again), its data-folder reads made again and compared. A
cell that answers other than it did then, or one whose files changed, means the state cannot be rebuilt faithfully,
and the call says so instead of going on from a different state.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from sandbox_server.journal import RunJournal, StateStore
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.sessions.cells import CellRecord, Point, SessionLost, StateRecord, chain, outcome_digest

__all__ = ["Cell", "Replayer", "rebuild"]


@dataclass(frozen=True, slots=True)
class Cell:
    """One call's cell: the job to run now, its journal (filled by the run), and what its record keeps."""

    job: Job
    journal: RunJournal
    tool: str
    code: str
    input_json: str | None
    timeout_ms: int
    files: Any = None
    files_digest: str | None = None


Replayer = Callable[[CellRecord], Awaitable[Job]]
"""Makes the job that runs a recorded cell again (its files read again; raises ``SessionLost`` when they changed)."""


async def rebuild(
    store: StateStore, point: Point, pool: WorkerPool, replay: Replayer, max_bytes: int
) -> tuple[list[StateRecord], int, int]:
    """Run the cells that lead to ``point``'s state in ``pool``'s worker; returns the records from the root, how many
    cells ran, and the journal's size in bytes.

    Raises:
        SessionLost: The state is gone, or cannot be rebuilt as it was.
    """
    records, size = await chain(store, point, max_bytes)
    runs = 0
    for index, record in enumerate(records[1:], 1):
        cell = record.cell
        if cell is None:
            raise SessionLost("the session's journal is incomplete; start a new session")
        if cell.unreplayable is not None:
            raise SessionLost(
                f"the session cannot be rebuilt here: its call {index} could not be kept in its journal "
                f"({cell.unreplayable}). Start a new session, and keep such calls out of sessions"
            )
        outcome = await pool.run(replace(await replay(cell), keep=True, cell=True))
        runs += 1
        if outcome_digest(dict(outcome)) != cell.result:
            raise SessionLost(
                f"the session cannot be rebuilt faithfully: its call {index}, run again with what it saw, answered "
                "differently (it depends on something a journal does not keep, such as garbage collection or "
                "WebAssembly's timing). Start a new session"
            )
    return records, runs, size
