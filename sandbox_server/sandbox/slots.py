"""What the pool keeps about each job and each worker: a :class:`Pending` job from submission to outcome, and a
:class:`Slot`, one worker process and what it is doing."""

from __future__ import annotations

import time
from typing import Literal

import anyio

from sandbox_server.sandbox.outcome import Outcome
from sandbox_server.sandbox.process import WorkerProcess
from sandbox_server.sandbox.protocol import Job

__all__ = ["Pending", "Slot", "SlotState"]

SlotState = Literal["starting", "idle", "busy", "recycling", "gone"]


class Pending:
    """A submitted job, from submission to outcome."""

    def __init__(self, job: Job, job_id: int) -> None:
        self.job = job
        self.id = job_id
        self.slot: Slot | None = None
        self.assigned = anyio.Event()
        self.done = anyio.Event()
        self.outcome: Outcome | None = None
        self.closed = False
        self.dispatched_at = 0.0
        self.host_calls: set[anyio.CancelScope] = set()
        """The scopes of the host calls in progress for this job, cancelled when it ends."""

    def finish(self, outcome: Outcome) -> None:
        if not self.done.is_set():
            self.outcome = outcome
            self.done.set()
        self.cancel_host_calls()

    def close(self) -> None:
        """The pool shut down before the job got an outcome."""
        self.closed = True
        self.assigned.set()
        self.done.set()
        self.cancel_host_calls()

    def cancel_host_calls(self) -> None:
        """Stop every host call of this job still in progress (the job has ended, one way or another)."""
        for scope in list(self.host_calls):
            scope.cancel()


class Slot:
    """One worker process and what it is doing."""

    def __init__(self, worker: WorkerProcess) -> None:
        self.worker = worker
        self.state: SlotState = "starting"
        self.job: Pending | None = None
        self.became_ready = False
        self.abandoned = False  # killed on purpose: a deadline or a cancellation
        self.settled = anyio.Event()  # first ready, or death before it
        self.pressed_job: int | None = None  # the job during which the worker said memory was running short
        self.spawned_at = time.perf_counter()
