"""An early word that a request will run code, from its raw text.

Between a request's arrival and the dispatch of its job to a worker, the SDK parses, validates and routes it (about a
millisecond over stdio). Both transports see each request's bytes before that (for its memory estimate), and when
they read like a call of a JavaScript tool they tell the server at once (:meth:`sandbox_server.app.App.expect_run`),
which tells the pool's worker the job will go to (:meth:`~sandbox_server.sandbox.pool.WorkerPool.prime`), so that it
is awake when the job comes; the session a call names is read too, so that a session's call (which runs on the
session's own worker) does not wake a pool worker for nothing. It is only a hint: a wrong guess costs an idle worker
a small run of the runtime's own, and a missed one costs nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

__all__ = ["MAX_SESSION_SCAN_BYTES", "RunHint", "announced_run", "tell"]

logger = logging.getLogger(__name__)

RunHint = Callable[[str | None], None]
"""What a transport calls when a request announces a run: with the session it names, or None."""

MAX_SESSION_SCAN_BYTES = 64 * 1024
"""The longest request whose session a transport reads for the hint (parsing it a second time is cheap only when it
is short); a longer one that names a session gives no hint."""


def announced_run(data: bytes | bytearray) -> tuple[bool, str | None]:
    """Whether ``data``, a request's JSON text, reads like a call of ``execute_js`` (or ``execute_js_with_tools``),
    and the session it names (None for none, or when it cannot tell)."""
    if b'"tools/call"' not in data or b'"execute_js' not in data:
        return False, None
    if b'"session"' not in data:
        return True, None
    if len(data) > MAX_SESSION_SCAN_BYTES:
        return False, None
    try:
        arguments = json.loads(data)["params"]["arguments"]
    except (ValueError, KeyError, TypeError, RecursionError):  # nested deeper than Python parses: the SDK refuses it
        return False, None
    session = arguments.get("session") if isinstance(arguments, dict) else None
    if isinstance(session, str):
        return True, session
    return isinstance(arguments, dict) and "session" not in arguments, None


def tell(hint: RunHint | None, data: bytes | bytearray) -> None:
    """Call ``hint`` if ``data`` announces a run; whatever goes wrong in doing so is logged, and the request goes on
    (a hint must never stop a transport from reading)."""
    if hint is None:
        return
    try:
        announces, session = announced_run(data)
        if announces:
            hint(session)
    except Exception:
        logger.exception("the early word of a request failed; the request goes on without it")
