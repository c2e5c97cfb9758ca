"""A worker process: runs jobs one at a time, each in a fresh V8 isolate prepared in advance.

Started by the pool as ``python -m sandbox_server.sandbox.worker <limits>``; speaks the frames of
:mod:`sandbox_server.sandbox.protocol` on stdin and on a private copy of its original stdout. Only this package
imports the JavaScript engine (``py_mini_racer``), in :mod:`.engine` and :mod:`.isolate`.

What the worker guards against itself: ordinary runaway loops (mini-racer's own timeout), heap growth (the
isolate's hard memory limit), off-heap buffers (the data-size allowance of :mod:`.memory`), stray output on fd 1.
What only the pool can stop: code that keeps the isolate busy outside the call the worker made (a loop in a
microtask, an ``await`` continuation or a timer callback) freezes this process, and V8's fatal errors end it; the
pool's deadline and its reading of stderr handle those.

The parts: :mod:`.serve` (the channel, the serve loop and start-up), :mod:`.job` (one job's run and outcome),
:mod:`.isolate` (one isolate with the runtime), :mod:`.options` (what a run is told besides its code),
:mod:`.memory` (the data-size allowance and its watch), :mod:`.engine` (mini-racer's exceptions, flags, isolates).
"""

from __future__ import annotations

from sandbox_server.sandbox.worker.engine import error_kind, v8_flags
from sandbox_server.sandbox.worker.isolate import syntax_error_position
from sandbox_server.sandbox.worker.serve import main

__all__ = ["error_kind", "main", "syntax_error_position", "v8_flags"]
