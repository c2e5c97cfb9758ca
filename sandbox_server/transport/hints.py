"""An early word that a request will run code, from its raw text.

Between a request's arrival and the worker pool's dispatch of its job, the SDK parses, validates and routes it (about
a millisecond over stdio). Both transports see each request's bytes before that (for its memory estimate), and when
they read like a call of a JavaScript tool outside a session, they tell the pool at once
(:meth:`~sandbox_server.sandbox.pool.WorkerPool.prime`), so that an idle worker is awake when the job comes. It is
only a hint: a wrong guess costs an idle worker a small run of the runtime's own, and a missed one costs nothing.
A session's call runs on the session's own worker, which this word would not reach, so it is left out.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["RunHint", "announces_a_run"]

RunHint = Callable[[], None]
"""What a transport calls when a request announces a run."""


def announces_a_run(data: bytes | bytearray) -> bool:
    """Whether ``data``, a request's JSON text, reads like a call of ``execute_js`` (or ``execute_js_with_tools``)
    that names no session."""
    return b'"tools/call"' in data and b'"execute_js' in data and b'"session"' not in data
