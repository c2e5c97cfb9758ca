"""Fixtures for the isolate runtime tests (see isolate_harness.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from isolate_harness import Isolate, RunJs, run_in_fresh_isolate


@pytest.fixture
def isolate() -> Iterator[Isolate]:
    """One isolate with the runtime loaded, closed after the test."""
    runtime = Isolate()
    try:
        yield runtime
    finally:
        runtime.close()


@pytest.fixture
def run_js() -> RunJs:
    """Run code in a fresh isolate and return the parsed outcome."""
    return run_in_fresh_isolate
