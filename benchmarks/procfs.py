"""Process facts read from /proc (Linux): children of a process and resident memory, with no dependency."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "children",
    "cmdline",
    "cpu_ms",
    "descendants",
    "peak_rss_bytes",
    "reaped_cpu_ms",
    "rss_bytes",
    "state",
    "tree_cpu_ms",
]

_PROC = Path("/proc")
_TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat from the third (state) on; None when the process has exited."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may itself contain spaces or parentheses.
    return stat[stat.rindex(")") + 2 :].split()


def state(pid: int) -> str | None:
    """The one-letter state of ``pid`` (``Z`` for a zombie), or None when it no longer exists."""
    fields = _stat_fields(pid)
    return None if fields is None else fields[0]


def _parent(pid: int) -> int | None:
    fields = _stat_fields(pid)
    return None if fields is None else int(fields[1])


def cpu_ms(pid: int) -> float:
    """CPU time ``pid`` has used so far (user + system, all threads), in milliseconds; 0 when it has exited."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / _TICKS_PER_S


def reaped_cpu_ms(pid: int) -> float:
    """CPU time of ``pid``'s children that have exited and been waited for (and of theirs), in milliseconds."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    return (int(fields[13]) + int(fields[14])) * 1000 / _TICKS_PER_S


def tree_cpu_ms(pid: int, *, include_root: bool = True) -> float:
    """CPU time of ``pid`` and every process it started, living or reaped, in milliseconds.

    Each process is counted once: a living one by its own time, an exited one in its parent's reaped time. A
    process that exits between the listing and the reading, before its parent waits for it, is missed.
    """
    total = reaped_cpu_ms(pid) + (cpu_ms(pid) if include_root else 0.0)
    for child in descendants(pid):
        total += cpu_ms(child) + reaped_cpu_ms(child)
    return total


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid``."""
    return sorted(int(entry) for entry in os.listdir(_PROC) if entry.isdigit() and _parent(int(entry)) == pid)


def workers(pid: int) -> list[int]:
    """The JavaScript worker processes among ``pid``'s children (not its chart renderer or upstream servers)."""
    return [child for child in children(pid) if "sandbox_server.sandbox.worker" in cmdline(child)]


def descendants(pid: int) -> list[int]:
    """Children of ``pid``, their children, and so on."""
    found: list[int] = []
    pending = children(pid)
    while pending:
        child = pending.pop()
        found.append(child)
        pending.extend(children(child))
    return sorted(found)


def cmdline(pid: int) -> list[str]:
    """The command line of ``pid``; empty when it has exited."""
    try:
        raw = (_PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return []
    return [part.decode(errors="replace") for part in raw.split(b"\0") if part]


def rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` (VmRSS); 0 when it has exited."""
    return _status_bytes(pid, "VmRSS:")


def peak_rss_bytes(pid: int) -> int:
    """The most resident memory ``pid`` has had since it started (VmHWM, the kernel's high-water mark, which no
    sampling can miss); 0 when it has exited."""
    return _status_bytes(pid, "VmHWM:")


def _status_bytes(pid: int, key: str) -> int:
    try:
        status = (_PROC / str(pid) / "status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith(key):
            return int(line.split()[1]) * 1024
    return 0
