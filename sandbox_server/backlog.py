"""The memory that requests in progress hold, bounded by bytes rather than by their count.

A request waiting for a worker holds its body and the arguments parsed from it, and what the server process builds
from them (the JSON text of ``input``, the job message). One ``1+1`` holds a few kilobytes and a call with a
megabyte of ``input`` several megabytes, so a cap on the number of requests either refuses a burst of small calls
that would fit easily or lets a few large ones take the memory. Both transports instead estimate what each request
holds from its raw message (:func:`request_cost`) and admit it while the estimates of everything in progress fit the
budget (``max_request_memory_mb``); past it a request is refused at once (HTTP ``503`` with ``Retry-After``, over
stdio a JSON-RPC error saying the same), and nothing else waits without bound.

The estimate has two parts, each a measured factor: bytes of the message, and JSON values in it (every array element
or object member becomes a Python object of some tens of bytes). Both are counted in C (``bytes.count``), so
estimating a 4 MB body takes about a millisecond. The count also bounds the work of parsing a message, which the
transport does on the event loop (about 250 ns per value): a message may hold at most ``max_message_values``.
Measured over HTTP, with 20 calls waiting on one worker (RSS growth per call against the estimate): a list of
120,000 integers (0.85 MB) 6.6 against 8.2 MiB; 330,000 empty objects (1.3 MB) 25.3 against 31.7 MiB; one string of
1 MB 3.5 against 3.8 MiB. What a request holds stays below its estimate, so the server's memory stays below its
start-up size plus the budget.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BYTE_FACTOR", "VALUE_BYTES", "Backlog", "json_values", "request_cost"]

BYTE_FACTOR = 4
"""Bytes held per byte of the raw message: the body, the text of ``input`` made from it, the job message."""
VALUE_BYTES = 40
"""Bytes held per separator or bracket of the message (about one per JSON value), once parsed into Python
objects: measured about 38 for a list of integers and 32 for a list of empty objects."""
BASE_COST = 16 * 1024
"""Bytes any request holds, however small: its request and session objects, the task that serves it."""


def json_values(data: bytes | bytearray) -> int:
    """About how many JSON values a message holds (an upper count: separators and brackets inside strings count)."""
    return data.count(b",") + data.count(b"[") + data.count(b"{")


def request_cost(message: bytes | bytearray | memoryview | str) -> int:
    """An upper estimate of the memory a request holds while it is in progress, from its raw JSON text."""
    data = message.encode("utf-8", "surrogatepass") if isinstance(message, str) else bytes(message)
    return BASE_COST + BYTE_FACTOR * len(data) + VALUE_BYTES * json_values(data)


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
