"""Regular expressions of upstream schemas, matched within a time budget.

An upstream tool's schema may hold any ``pattern`` (or ``patternProperties`` key), and the running code chooses the
strings matched against it: with Python's ``re``, a pattern such as ``^(a|a?)+$`` on forty characters backtracks for
hours, holding the interpreter lock, and so every client of the server. jsonschema matches with ``re.search`` in its
keyword modules; :func:`install` gives those modules a stand-in whose ``search`` uses the ``regex`` package (which
avoids most such blow-ups, matches without the interpreter lock, and takes a timeout) whenever a budget is set by
:func:`budget`, and is ``re.search`` otherwise, so that the server's own schemas are checked exactly as before.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import re
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import regex

__all__ = ["CheckTooSlow", "budget", "install"]

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("pattern_deadline", default=None)


class CheckTooSlow(Exception):
    """A check ran out of its time budget while matching a pattern."""


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str, flags: int) -> Any:
    try:
        return regex.compile(pattern, flags)
    except regex.error:
        return None


class _BoundedRe(ModuleType):
    """Stands in for ``re`` in jsonschema's keyword modules: all of ``re``, with a bounded ``search``."""

    def __init__(self) -> None:
        super().__init__("re")

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)

    @staticmethod
    def search(pattern: Any, string: Any, flags: int = 0) -> Any:
        deadline = _deadline.get()
        if deadline is None or not isinstance(pattern, str) or not isinstance(string, str):
            return re.search(pattern, string, flags)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise CheckTooSlow
        compiled = _compiled(pattern, flags)
        if compiled is None:  # a pattern `regex` reads differently from `re`: as jsonschema would, unbounded
            return re.search(pattern, string, flags)
        try:
            return compiled.search(string, timeout=remaining, concurrent=True)
        except TimeoutError:
            raise CheckTooSlow from None


_STAND_IN = _BoundedRe()


def install() -> None:
    """Give jsonschema's keyword modules the bounded stand-in for ``re`` (once; idempotent)."""
    import jsonschema._keywords
    import jsonschema._legacy_keywords
    import jsonschema._utils

    for module in (jsonschema._keywords, jsonschema._legacy_keywords, jsonschema._utils):
        module.re = _STAND_IN  # type: ignore[attr-defined]


@contextlib.contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Within the block, schema patterns match within ``seconds`` in all; past it they raise CheckTooSlow."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)
