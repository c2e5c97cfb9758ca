"""Every call specific to an operating system, behind one small interface.

The server and its workers use the host for a handful of things no portable Python API gives exactly: a process's
data size and a limit on it (which bounds memory outside the V8 heap), a worker that dies with its parent, the path
an open descriptor really names (which closes the gap between checking a data-folder path and opening it), the
descriptor limit, and the CPUs the process may use. Two implementations exist:

- :mod:`.linux` (the default on Linux): ``/proc/self/status`` for the data size, ``RLIMIT_DATA`` as its limit,
  ``prctl(PR_SET_PDEATHSIG)``, ``/proc/self/fd``, ``sched_getaffinity``.
- :mod:`.portable` (macOS and other systems, or on Linux with ``SANDBOX_PLATFORM=portable``): ``psutil`` for the
  memory figure (resident size; untouched memory does not count), no operating-system limit on it (the worker's
  10 ms memory watch is the enforcement), a thread that ends the worker when its parent is gone, ``F_GETPATH``
  where the system has it, ``os.cpu_count``. SECURITY.md says what is weaker.

The choice is made once per process from ``SANDBOX_PLATFORM`` (``auto``, ``linux`` or ``portable``; workers inherit
it), so that the test suite can run the portable implementation on Linux.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Literal, NoReturn

__all__ = [
    "NAME",
    "PLATFORM_VARIABLE",
    "cpu_count",
    "data_size",
    "descriptor_path",
    "die_with_parent",
    "limit_data_size",
    "raise_open_file_limit",
]

PLATFORM_VARIABLE = "SANDBOX_PLATFORM"
"""The environment variable that picks the implementation."""


def _chosen() -> Literal["linux", "portable"]:
    asked = os.environ.get(PLATFORM_VARIABLE, "auto").strip().lower() or "auto"
    if asked not in ("auto", "linux", "portable"):
        raise ValueError(f"{PLATFORM_VARIABLE}={asked!r} is not one of auto, linux, portable")
    if asked == "auto":
        return "linux" if sys.platform.startswith("linux") else "portable"
    if asked == "linux" and not sys.platform.startswith("linux"):
        raise ValueError(f"{PLATFORM_VARIABLE}=linux on {sys.platform}: use auto or portable")
    return asked  # type: ignore[return-value]  # checked above


def _problem() -> str | None:
    try:
        _chosen()
    except ValueError as problem:
        return str(problem)
    return None


_PROBLEM = _problem()
"""Why ``SANDBOX_PLATFORM`` names no usable implementation, or None. Importing this package does not fail on it (the
server's ``platform`` setting reports it, as a configuration error, before anything needs the host: the supervisor of
child processes lives here too); using any of its functions does."""

if TYPE_CHECKING or _PROBLEM is None:
    NAME: Literal["linux", "portable"] = _chosen()
    """The implementation in use in this process."""

    if NAME == "linux":
        from sandbox_server.platform.linux import (
            cpu_count,
            data_size,
            descriptor_path,
            die_with_parent,
            limit_data_size,
            raise_open_file_limit,
        )
    else:
        from sandbox_server.platform.portable import (
            cpu_count,
            data_size,
            descriptor_path,
            die_with_parent,
            limit_data_size,
            raise_open_file_limit,
        )
else:

    def __getattr__(name: str) -> NoReturn:
        if name in __all__:
            raise ValueError(_PROBLEM)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
