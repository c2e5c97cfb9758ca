"""The host calls of a journaled run: each one answered from the journal when an earlier run of the same code already
made it, made live otherwise and kept in the journal; and the pause, when a call waits for the user's consent.

A call the journal holds must ask what it asked before (the same kind and payload under the same id): the code, run
again with the same seeds, clock and order of events, makes the same calls; one that asks something else means the
run did not retrace its steps, and it gets an error instead of a guess. An upstream tool's answer comes from the
journal, so the tool is never called twice; a data-folder read is made again and must read the same bytes.

A call whose tool needs consent raises ``ConsentPending`` in the tool service; here it is held (never answered)
and the run is to pause: :meth:`JournalingHost.drained` says when no other call is still being made (their answers
belong in the journal), and from :meth:`hold` on, new calls are held too, never made, to be made when the run is
done again.
"""

from __future__ import annotations

import time
from typing import Any

import anyio

from sandbox_server.errors import ConsentPending
from sandbox_server.journal.record import DIGEST_ONLY_PREFIXES, CallEntry, RunJournal, digest
from sandbox_server.sandbox.protocol import CURRENT_HOST_CALL, HostCallFailed, HostHandler

__all__ = ["JournalingHost"]


class JournalingHost:
    """A :class:`~sandbox_server.sandbox.protocol.HostHandler` that journals the calls of one run.

    Args:
        inner: Makes the calls live (the execution's dispatcher).
        journal: The run's journal; the calls it already holds are answered from it.
    """

    def __init__(self, inner: HostHandler, journal: RunJournal) -> None:
        self._inner = inner
        self.journal = journal
        self._earlier = dict(journal.calls)
        self.questions: dict[int, str] = {}
        """Requests for consent the run waits for, by call id."""
        self.pause_wanted = anyio.Event()
        self.diverged: str | None = None
        """Why the run did not retrace its steps, once it did not."""
        self.replayed: list[dict[str, Any]] = []
        """The ``calls`` records of the upstream calls answered from the journal, in the order the code made them."""
        self._in_flight = 0
        self._drained = anyio.Event()
        self._drained.set()
        self._holding = False

    async def __call__(self, kind: str, payload: Any) -> Any:
        call = CURRENT_HOST_CALL.get()
        asked = digest([kind, payload])
        earlier = self._earlier.get(call)
        if earlier is not None:
            if earlier.kind != kind or earlier.asked != asked:
                self._diverge(f"its host call #{call} asked for something other than before ({kind})")
            if earlier.answer is not None:
                if earlier.record is not None:
                    self.replayed.append(earlier.record)
                return _give(earlier.answer)
            answer = await self._make(call, kind, payload, asked)
            if digest(answer) != earlier.answer_digest:
                self._diverge(f"its host call #{call} ({kind}) read something other than before: a file changed")
            return _give(answer)
        expected = self.journal.asked.get(call)
        if expected is not None and expected != asked:
            self._diverge(f"its host call #{call} is not the call the user was asked about")
        if self._holding:
            await anyio.sleep_forever()
        return _give(await self._make(call, kind, payload, asked))

    async def _make(self, call: int, kind: str, payload: Any, asked: str) -> dict[str, Any]:
        self._in_flight += 1
        if self._in_flight == 1:
            self._drained = anyio.Event()
        started = time.monotonic()
        pending = False
        try:
            try:
                answer: dict[str, Any] = {"ok": True, "value": await self._inner(kind, payload)}
            except HostCallFailed as exc:
                answer = {"ok": False, "error": exc.error}
            except ConsentPending as exc:
                self.questions[call] = exc.question
                self.journal.asked[call] = asked
                self.pause_wanted.set()
                pending = True
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._drained.set()
        if pending:
            await anyio.sleep_forever()  # answered when the run is done again with the user's answer
        keep_digest = kind.startswith(DIGEST_ONLY_PREFIXES)
        self.journal.calls[call] = CallEntry(
            kind,
            asked,
            None if keep_digest else answer,
            digest(answer) if keep_digest else None,
            _record(kind, payload, answer, time.monotonic() - started),
        )
        return answer

    async def drained(self) -> None:
        """Return once no call is being made (held calls do not count)."""
        while self._in_flight:
            await self._drained.wait()

    def hold(self) -> None:
        """From now on, hold every new call: the run is about to pause."""
        self._holding = True

    def _diverge(self, why: str) -> None:
        self.diverged = self.diverged or why
        raise HostCallFailed(
            {
                "name": "ReplayError",
                "code": "diverged",
                "message": f"this run, done again to resume it, did not retrace its steps: {why}. Its earlier calls "
                "were not made again; call the tool again to start over",
            }
        )


def _give(answer: dict[str, Any]) -> Any:
    if answer.get("ok") is True:
        return answer.get("value")
    error = answer.get("error")
    raise HostCallFailed(error if isinstance(error, dict) else {"name": "Error", "message": "the host call failed"})


def _record(kind: str, payload: Any, answer: dict[str, Any], seconds: float) -> dict[str, Any] | None:
    """The ``calls`` record of an upstream tool call, as a later run answered from the journal shows it."""
    if kind != "tools.call" or not isinstance(payload, dict):
        return None
    error = answer.get("error")
    outcome = (
        "ok" if answer.get("ok") is True else str(error.get("code", "error") if isinstance(error, dict) else "error")
    )
    return {
        "server": str(payload.get("server", ""))[:100],
        "tool": str(payload.get("tool", ""))[:200],
        "outcome": outcome,
        "durationMs": round(seconds * 1000, 1),
        "replayed": True,
    }
