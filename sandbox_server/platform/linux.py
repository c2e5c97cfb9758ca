"""The Linux implementation: ``/proc``, ``RLIMIT_DATA`` and ``prctl``."""

from __future__ import annotations

import ctypes
import logging
import os
import resource
import signal

from sandbox_server.platform.posix import raise_open_file_limit

__all__ = ["cpu_count", "data_size", "descriptor_path", "die_with_parent", "limit_data_size", "raise_open_file_limit"]

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


_status: tuple[int, int] | None = None
"""This process's id and a descriptor of its ``/proc/PID/status``, kept open: read again from the start, the file is
made anew, for about a fifth of the time an open, a read and a close take."""


def data_size() -> int:
    """The process's data size in bytes (``VmData``: private writable memory, touched or not)."""
    global _status
    pid = os.getpid()
    if _status is None or _status[0] != pid:
        _status = (pid, os.open(f"/proc/{pid}/status", os.O_RDONLY | os.O_CLOEXEC))
    text = os.pread(_status[1], 8192, 0)
    start = text.find(b"\nVmData:")
    if start == -1:
        raise OSError("VmData not found in /proc/self/status")
    end = text.index(b"\n", start + 1)
    return int(text[start + 8 : end].split()[0]) * 1024


def limit_data_size(limit: int) -> int | None:
    """Limit the data size to ``limit`` bytes (``RLIMIT_DATA``; never above the hard limit); returns the limit set.

    Allocations past it fail, so an ArrayBuffer bomb becomes a catchable RangeError. ``RLIMIT_AS`` would be simpler,
    but V8 cannot start under it.
    """
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    limit = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    return limit


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent dies, even while JavaScript keeps it busy."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        logger.warning("prctl(PR_SET_PDEATHSIG) failed: errno %d", ctypes.get_errno())
    if os.getppid() == 1:
        # The parent died before the request took effect.
        os._exit(1)


def descriptor_path(descriptor: int) -> str | None:
    """The path the kernel reports for an open descriptor, or None when it cannot say."""
    try:
        return os.readlink(f"/proc/self/fd/{descriptor}")
    except OSError:
        return None


def cpu_count() -> int:
    """The CPUs this process may run on."""
    return max(1, len(os.sched_getaffinity(0)))
