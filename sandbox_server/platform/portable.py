"""The portable implementation, for macOS and other systems without ``/proc`` and ``prctl``.

What it cannot do (and SECURITY.md repeats): there is no operating-system limit on the data size, so memory
outside the V8 heap is bounded only by the worker's memory watch, which reads the resident size every 10 ms and
stops the job (or, when the job cannot be stopped, ends the worker) past the allowance; memory a buffer reserves
but never touches is not counted, as it uses nothing. A worker whose parent dies notices within
:data:`PARENT_CHECK_S`, not at once.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time

import psutil

from sandbox_server.platform.posix import raise_open_file_limit

__all__ = [
    "PARENT_CHECK_S",
    "cpu_count",
    "data_size",
    "descriptor_path",
    "die_with_parent",
    "limit_data_size",
    "raise_open_file_limit",
]

PARENT_CHECK_S = 0.5
"""How often a worker checks that its parent is still there."""

_PROCESS = psutil.Process()


def data_size() -> int:
    """The process's resident size in bytes: the memory it really uses."""
    return int(_PROCESS.memory_info().rss)


def limit_data_size(limit: int) -> int | None:
    """No operating-system limit exists here that V8 respects; returns None (the memory watch enforces the bound)."""
    del limit
    return None


def die_with_parent() -> None:
    """End this process once its parent is gone: a daemon thread checks the parent id every
    :data:`PARENT_CHECK_S` (an orphan is adopted by another process), however busy the main thread is."""
    parent = os.getppid()
    if parent == 1:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_S)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def descriptor_path(descriptor: int) -> str | None:
    """The path an open descriptor names, where the system tells (``F_GETPATH`` on macOS); None elsewhere."""
    get_path = getattr(fcntl, "F_GETPATH", None)
    if get_path is None:
        return None
    try:
        raw = fcntl.fcntl(descriptor, get_path, bytes(1024))
    except OSError:
        return None
    return os.fsdecode(raw.split(b"\0", 1)[0])


def cpu_count() -> int:
    """The CPUs of the machine."""
    return max(1, os.cpu_count() or 1)
