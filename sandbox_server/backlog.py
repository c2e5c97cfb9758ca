"""The memory that requests in progress hold, bounded by bytes rather than by their count.

A request waiting for a worker holds its body and the arguments parsed from it, and what the server process builds
from them (the JSON text of ``input``, the job message). One ``1+1`` holds a few kilobytes and a call with a
megabyte of ``input`` several megabytes, so a cap on the number of requests either refuses a burst of small calls
that would fit easily or lets a few large ones take the memory. Both transports instead estimate what each request
holds from its raw message (:func:`request_cost`) and admit it while the estimates of everything in progress fit the
budget (``max_request_memory_mb``); past it a request is refused at once (HTTP ``503`` with ``Retry-After``, over
stdio a JSON-RPC error saying the same), and nothing else waits without bound.

The estimate has three parts, each a measured factor: bytes of the message, JSON values in it (every array element
or object member becomes a Python object of some tens of bytes), and objects with members (a Python dict with a
keys table: 184 bytes for up to five members, where an empty one takes 64). All are counted in C (``bytes.count``),
so estimating a 4 MB body takes about a millisecond. The count of values also bounds the work of parsing a message,
which the transport does on the event loop (about 250 ns per value): a message may hold at most
``max_message_values``. Measured over HTTP, with 20 calls waiting on one worker (RSS growth per call against the
estimate): a list of 120,000 integers (0.85 MB) 6.6 against 8.2 MiB; 330,000 empty objects (1.3 MB) 25.3 against
31.7 MiB; 125,000 objects of one member (1 MB) 22.9 against 30.5 MiB (counting values alone gave 13.6: twenty of them
took the server 200 MiB past its budget); one string of 1 MB 3.5 against 3.8 MiB. What a request holds stays below
its estimate, so the server's memory stays below its start-up size plus the budget.

A refused request is told when to retry (:meth:`Backlog.retry_after`): the seconds in which as many requests in
progress as must end to make room for it end, at the rate requests have ended over the last half minute.
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "BYTE_FACTOR",
    "MAX_RETRY_AFTER_S",
    "MEMBERS_BYTES",
    "VALUE_BYTES",
    "Backlog",
    "json_values",
    "request_cost",
]

BYTE_FACTOR = 4
"""Bytes held per byte of the raw message: the body, the text of ``input`` made from it, the job message."""
VALUE_BYTES = 40
"""Bytes held per separator or bracket of the message (about one per JSON value), once parsed into Python
objects: measured about 38 for a list of integers and 32 for a list of empty objects."""
MEMBERS_BYTES = 144
"""Bytes held per object with members beyond its value's share: a dict's keys table (184 bytes for up to five
members, less the 40 its value already counts); measured 192 per object of one member, list slot included."""
BASE_COST = 16 * 1024
"""Bytes any request holds, however small: its request and session objects, the task that serves it."""


def json_values(data: bytes | bytearray) -> int:
    """About how many JSON values a message holds (an upper count: separators and brackets inside strings count)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def request_cost(message: bytes | bytearray | memoryview | str) -> int:
    """An upper estimate of the memory a request holds while it is in progress, from its raw JSON text."""
    data = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else bytes(message)
    objects_with_members = data.count(b"{") - data.count(b"{}")
    return BASE_COST + BYTE_FACTOR * len(data) + VALUE_BYTES * json_values(data) + MEMBERS_BYTES * objects_with_members


MAX_RETRY_AFTER_S = 60
"""Longest wait a refusal suggests."""
RELEASE_WINDOW_S = 30.0
"""How far back the releases that measure the rate of finishing requests go."""


@dataclass(slots=True)
class Backlog:
    """The requests in progress of one server and the memory their estimates add up to.

    Attributes:
        limit: The budget in bytes.
        in_use: Bytes reserved by requests in progress.
        requests: Requests in progress (holding a reservation).
        refused: Requests refused so far for lack of room.
    """

    limit: int
    in_use: int = 0
    requests: int = 0
    refused: int = 0
    clock: Callable[[], float] = time.monotonic
    _released: collections.deque[tuple[float, int]] = field(default_factory=collections.deque)
    _since: float | None = None  # when the backlog began: endings are counted over the time since, at most

    def __post_init__(self) -> None:
        self._since = self.clock()

    def reserve(self, cost: int) -> bool:
        """Count a request of ``cost`` bytes in when it fits; False (and counted as refused) when it does not.

        A request alone larger than the whole budget is admitted when nothing else is in progress, so that the
        largest request the size limits accept can always be served one at a time.
        """
        if self.in_use + cost > self.limit and self.requests > 0:
            self.refused += 1
            return False
        self.in_use += cost
        self.requests += 1
        return True

    def grow(self, reserved: int, cost: int) -> bool:
        """Raise a reservation of ``reserved`` bytes to ``cost`` (a body whose whole size is known only once
        read); False, keeping the first reservation, when the difference does not fit."""
        extra = cost - reserved
        if extra <= 0:
            return True
        if self.in_use + extra > self.limit and self.requests > 1:
            self.refused += 1
            return False
        self.in_use += extra
        return True

    def release(self, cost: int) -> None:
        """The request of ``cost`` bytes has been answered (or abandoned)."""
        self.in_use = max(0, self.in_use - cost)
        self.requests = max(0, self.requests - 1)
        now = self.clock()
        self._released.append((now, cost))
        self._forget_before(now - RELEASE_WINDOW_S)

    def retry_after(self, cost: int) -> int:
        """Whole seconds after which a request of ``cost`` bytes, refused now, may fit.

        The requests in progress that must finish to make room for it (by their average size), at the rate at
        which requests have finished over the last :data:`RELEASE_WINDOW_S` seconds; 1 when none has finished in
        that time (nothing to measure by); at most :data:`MAX_RETRY_AFTER_S`.
        """
        now = self.clock()
        self._forget_before(now - RELEASE_WINDOW_S)
        needed = self.in_use + cost - self.limit
        if needed <= 0 or self.requests == 0 or not self._released:
            return 1
        ahead = math.ceil(needed / (self.in_use / self.requests))
        observed_from = max(now - RELEASE_WINDOW_S, self._since if self._since is not None else now)
        per_second = len(self._released) / max(1.0, now - observed_from)
        return max(1, min(MAX_RETRY_AFTER_S, math.ceil(ahead / per_second)))

    def _forget_before(self, moment: float) -> None:
        while self._released and self._released[0][0] < moment:
            self._released.popleft()

    def refusal(self, cost: int, setting: str = "max_request_memory_mb") -> str:
        """Why a request of ``cost`` bytes was refused, for the client."""
        return (
            f"{self.requests} requests in progress hold about {_mib(self.in_use)} MiB of the {_mib(self.limit)} MiB "
            f"this server gives them ({setting}), and this one needs about {_mib(cost)} MiB"
        )

    def stats(self) -> dict[str, int]:
        """Counts for the health endpoint."""
        return {
            "requests": self.requests,
            "bytesInUse": self.in_use,
            "bytesLimit": self.limit,
            "refused": self.refused,
        }


def _mib(size: int) -> str:
    return f"{size / 2**20:.1f}"
