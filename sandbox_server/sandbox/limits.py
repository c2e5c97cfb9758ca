"""The limits every execution in a worker runs under, and the numbers derived from them.

The pool passes the limits to each worker process on its command line; both sides derive the
V8 heap ceiling from them here, so the two never disagree. Defaults come from
:mod:`sandbox_server.settings`, imported only when a default is needed: a worker receives every
value explicitly and so starts without loading the settings machinery (pydantic), which would
otherwise be most of its start-up time.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MIB", "SandboxLimits", "setting_default"]

MIB = 1024 * 1024

_MIN_HEAP_HEADROOM_MB = 32
"""Least room between the heap limit and V8's own fatal ceiling."""


def setting_default(name: str) -> Callable[[], Any]:
    """A dataclass ``default_factory`` reading the constant ``name`` of :mod:`sandbox_server.settings`."""

    def default() -> Any:
        from sandbox_server import settings

        return getattr(settings, name)

    return default


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """Limits applied to every execution.

    Attributes:
        memory_limit_mb: The V8 heap limit of one execution in MiB; the worker's OS data limit is derived
            from it too.
        output_cap_bytes: stdout + stderr + the rendered result, together, in UTF-8 bytes.
        timezone: The IANA time zone the JavaScript engine sees.
    """

    memory_limit_mb: int = field(default_factory=setting_default("DEFAULT_MEMORY_LIMIT_MB"))
    output_cap_bytes: int = field(default_factory=setting_default("DEFAULT_OUTPUT_CAP_BYTES"))
    timezone: str = field(default_factory=setting_default("DEFAULT_TIMEZONE"))

    def __post_init__(self) -> None:
        if self.memory_limit_mb < 1:
            raise ValueError(f"memory_limit_mb must be positive, not {self.memory_limit_mb}")
        if self.output_cap_bytes < 0:
            raise ValueError(f"output_cap_bytes must not be negative, not {self.output_cap_bytes}")
        if not self.timezone:
            raise ValueError("timezone must not be empty")

    @property
    def memory_limit_bytes(self) -> int:
        """The heap limit in bytes, as mini-racer takes it."""
        return self.memory_limit_mb * MIB

    @property
    def heap_ceiling_mb(self) -> int:
        """V8's own fatal heap size (``--max-old-space-size``), a bit above the heap limit.

        mini-racer checks its limit only after a garbage collection; the ceiling stops a heap that grows
        inside one native call (``new Array(1e9).fill(0)``) long before the machine runs short.
        """
        return self.memory_limit_mb + max(_MIN_HEAP_HEADROOM_MB, self.memory_limit_mb // 2)

    def to_args(self) -> list[str]:
        """Command-line arguments that :meth:`from_args` turns back into these limits."""
        return [
            f"--memory-limit-mb={self.memory_limit_mb}",
            f"--output-cap-bytes={self.output_cap_bytes}",
            f"--timezone={self.timezone}",
        ]

    @classmethod
    def from_args(cls, argv: Sequence[str]) -> SandboxLimits:
        """Parse the arguments written by :meth:`to_args` (all of them are required)."""
        parser = argparse.ArgumentParser(prog="python -m sandbox_server.sandbox.worker")
        parser.add_argument("--memory-limit-mb", type=int, required=True)
        parser.add_argument("--output-cap-bytes", type=int, required=True)
        parser.add_argument("--timezone", required=True)
        args = parser.parse_args(list(argv))
        return cls(memory_limit_mb=args.memory_limit_mb, output_cap_bytes=args.output_cap_bytes, timezone=args.timezone)
