"""What both implementations share: the POSIX descriptor limit."""

from __future__ import annotations

import resource

__all__ = ["raise_open_file_limit"]


def raise_open_file_limit(needed: int) -> int:
    """Raise the soft ``RLIMIT_NOFILE`` towards ``needed`` (never past the hard limit); returns the soft limit now in
    force (a very large number when there is none)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return 2**62 if soft == resource.RLIM_INFINITY else int(soft)
