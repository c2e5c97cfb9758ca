"""Runs that pause for the user's consent and resume when the client calls again with the answer (MCP 2026-07-28).

On the current revision a server cannot ask the client anything in the middle of a call: it answers the call with
``input_required`` (the questions, and a ``requestState`` the client hands back with its answers, sealed by the SDK).
So a run whose code calls a tool that needs consent stops there, with its journal
(:mod:`sandbox_server.journal`), and the client's answer starts it again from the beginning: what it saw before the
pause comes from the journal, so it makes the same calls, none of those already made is made again, and the call the
user allowed runs once, when the run reaches it. A request state is used once: the same one sent again is refused.

The journal rides in the request state while it is small and waits in the state store, under a key the state names,
when it is not.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import mcp_types as types

from sandbox_server.errors import ConsentPending, ToolError
from sandbox_server.journal import (
    JournalError,
    JournalingHost,
    RunJournal,
    StateStore,
    StoreFull,
    StoreUnavailable,
    pack,
    unpack,
)
from sandbox_server.registry import Resume
from sandbox_server.sandbox.protocol import CURRENT_HOST_CALL, RunControl
from sandbox_server.upstream.consent import CONSENT_SCHEMA
from sandbox_server.upstream.service import ConsentAnswer

__all__ = [
    "CONSENT_KEY_PREFIX",
    "PausedRuns",
    "ResumableConsent",
    "consent_requests",
    "files_digest",
    "pausable_run",
]

CONSENT_KEY_PREFIX = "consent-"
"""The key of a request for consent among ``inputRequests``, followed by the host call's id."""
INLINE_STATE_BYTES = 48 * 1024
"""Largest packed journal carried in the request state itself; a larger one waits in the state store."""
_STATE_VERSION = 1


class ResumableConsent:
    """Consent on the current revision: the answer the user gave for this call, if the run was paused for it; else
    the run must pause (``ConsentPending``)."""

    def __init__(self, answers: dict[int, str]) -> None:
        self._answers = answers

    async def __call__(self, message: str) -> ConsentAnswer:
        answer = self._answers.get(CURRENT_HOST_CALL.get())
        if answer == "accept":
            return "accept"
        if answer == "decline":
            return "decline"
        if answer == "cancel":
            return "cancel"
        raise ConsentPending(message)


T = TypeVar("T")


async def pausable_run(run: Callable[[], Awaitable[T]], host: JournalingHost, control: RunControl) -> T:
    """``run()``'s value, pausing the run once a call waits for consent and no other call is still being made."""
    async with anyio.create_task_group() as group:

        async def watch() -> None:
            await host.pause_wanted.wait()
            await host.drained()
            host.hold()
            control.pause()

        group.start_soon(watch)
        value = await run()
        group.cancel_scope.cancel()
    return value


def consent_requests(questions: dict[int, str]) -> dict[str, types.ElicitRequest]:
    """The ``inputRequests`` asking each question (one boolean ``allow``, as a request in the call would)."""
    return {
        f"{CONSENT_KEY_PREFIX}{call}": types.ElicitRequest(
            params=types.ElicitRequestFormParams(message=question, requested_schema=CONSENT_SCHEMA)
        )
        for call, question in sorted(questions.items())
    }


class PausedRuns:
    """Turns a paused run into request state and back, using each one once.

    Args:
        store: Holds large journals and the record of states used.
        ttl_s: How long a paused run waits for its answer (``state_ttl_s``); the SDK expires the state itself.
        max_journal_bytes: The largest journal (as JSON) a run may pause with (``max_journal_bytes``).
    """

    def __init__(self, store: StateStore, ttl_s: float, max_journal_bytes: int) -> None:
        self._store = store
        self._ttl_s = ttl_s
        self._max_bytes = max_journal_bytes

    async def pause(self, journal: RunJournal, extra: dict[str, Any]) -> str:
        """The request state of a run paused with ``journal``; ``extra`` is kept with it.

        Raises:
            ToolError: The journal cannot be kept (too large, or the runtime's record overflowed).
        """
        if journal.overflow:
            raise ToolError(
                "the code needs the user's consent, but it cannot be paused for it: before the call it read the clock "
                "or ran timers more than 20,000 times, more than a paused run can keep. Make the calls that need "
                "consent earlier, or in a call of their own"
            )
        nonce = os.urandom(16).hex()
        try:
            packed = pack({"v": _STATE_VERSION, "nonce": nonce, "journal": journal.to_json(), **extra}, self._max_bytes)
        except JournalError as exc:
            raise ToolError(
                f"the code needs the user's consent, but it cannot be paused for it: {exc} (max_journal_bytes). "
                "Fetch less before the call that needs consent, or make it in a call of its own"
            ) from None
        if len(packed) <= INLINE_STATE_BYTES:
            return packed
        try:
            await self._store.put(f"run:{nonce}", packed.encode("ascii"), self._ttl_s)
        except (StoreFull, StoreUnavailable) as exc:
            raise ToolError(f"the code needs the user's consent, but the paused run cannot be kept: {exc}") from None
        return pack({"v": _STATE_VERSION, "ref": nonce}, 1024)

    async def resume(self, resume: Resume) -> tuple[RunJournal, dict[str, Any]]:
        """The journal of the paused run ``resume`` continues, with the user's answers, and what was kept with it.

        Raises:
            ToolError: The state cannot be resumed (unreadable, used already, its journal gone, the store down).
        """
        try:
            return await self._resumed(resume)
        except StoreUnavailable as exc:
            raise ToolError(
                f"this paused run cannot be resumed now: {exc}. Nothing ran; send the same answer again once the "
                "store answers"
            ) from None

    async def _resumed(self, resume: Resume) -> tuple[RunJournal, dict[str, Any]]:
        value = self._read(resume.state, 1024 + 4 * INLINE_STATE_BYTES)
        if "ref" in value:
            nonce = value["ref"]
            held = await self._store.get(f"run:{nonce}") if isinstance(nonce, str) else None
            if held is None:
                raise ToolError(
                    "this paused run's journal is not here: it was kept by another server process (or has expired). "
                    "Replicas that resume each other's runs must share a state store (SANDBOX_STATE_STORE); call the "
                    "tool again to run the code anew"
                )
            value = self._read(held.decode("ascii"), self._max_bytes)
        nonce = value.get("nonce")
        if not isinstance(nonce, str) or len(nonce) != 32:
            raise ToolError("this request state holds no paused run; call the tool again to run the code anew")
        if not await self._store.claim(f"used:{nonce}", self._ttl_s):
            raise ToolError(
                "this paused run was resumed already with the same request state, and a paused run resumes once: "
                "what the user allowed has not run again. Call the tool again to run the code anew"
            )
        try:
            journal = RunJournal.from_json(value.get("journal"))
        except JournalError as exc:
            raise ToolError(f"this request state's journal is unusable ({exc}); call the tool again") from None
        for call in journal.asked:
            if call not in journal.calls and call not in journal.consent:
                journal.consent[call] = _answer(resume.responses.get(f"{CONSENT_KEY_PREFIX}{call}"))
        extra = {key: item for key, item in value.items() if key not in ("v", "nonce", "journal")}
        return journal, extra

    def _read(self, text: str, max_bytes: int) -> dict[str, Any]:
        try:
            value = unpack(text, max_bytes)
        except JournalError:
            value = None
        if not isinstance(value, dict) or value.get("v") != _STATE_VERSION:
            raise ToolError("this request state holds no paused run of this server; call the tool again")
        return value


def _answer(response: Any) -> str:
    """accept, decline or cancel, from the client's answer to one request for consent (none means cancel)."""
    if response is None:
        return "cancel"
    if isinstance(response, dict):
        action, content = response.get("action"), response.get("content")
    else:
        action, content = getattr(response, "action", None), getattr(response, "content", None)
    if action == "accept":
        return "accept" if isinstance(content, dict) and content.get("allow") is True else "decline"
    return "decline" if action == "decline" else "cancel"


def files_digest(payload: str | None) -> str | None:
    """A digest of the files a run was given, to see on resume that they are still the same."""
    if payload is None:
        return None
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:32]
