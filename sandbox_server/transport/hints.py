"""An early word that a request will run code, from its raw text.

Between a request's arrival and the dispatch of its job to a worker, the SDK parses, validates and routes it (about a
millisecond over stdio). Both transports see each request's bytes before that (for its memory estimate), and when
they read like a call of a JavaScript tool outside a session, or like the cancellation of a request, they pass them
to the server's early word (:meth:`sandbox_server.app.App.early_word`): over HTTP it wakes the idle worker the job
will go to (:meth:`~sandbox_server.sandbox.pool.WorkerPool.prime`); over stdio, where the one client's request ids
name its calls, a small call of pure computation starts at once, and its handler takes the outcome when it comes
(:mod:`sandbox_server.tools.early`). A request with ``"session"`` in it gives no word: a session's call runs on the
session's own worker, and waking that one the same way made its calls slower, not faster (one server, alternating
rounds, 150 each: 6.93 against 6.50 ms 4 ms apart, 5.81 against 5.69 ms 50 ms apart).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sandbox_server.tools.early import announces_a_cancel

__all__ = ["EarlyWord", "announces_a_run", "tell"]

logger = logging.getLogger(__name__)

EarlyWord = Callable[[bytes], None]
"""What a transport calls with a request's text when it announces a run or a cancellation."""


def announces_a_run(data: bytes | bytearray) -> bool:
    """Whether ``data``, a request's JSON text, reads like a call of ``execute_js`` (or ``execute_js_with_tools``)
    that names no session. Only three fixed strings are looked for: nothing is parsed."""
    return b'"tools/call"' in data and b'"execute_js' in data and b'"session"' not in data


def tell(word: EarlyWord | None, data: bytes | bytearray) -> None:
    """Pass ``data`` to ``word`` if it announces a run or a cancellation; whatever goes wrong in doing so is logged,
    and the request goes on (a hint must never stop a transport from reading)."""
    if word is None or not (announces_a_run(data) or announces_a_cancel(data)):
        return
    try:
        word(bytes(data))
    except Exception:
        logger.exception("the early word of a request failed; the request goes on without it")
