"""Fixtures for the web module tests (see loader_stand_in.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from loader_stand_in import WebIsolate


@pytest.fixture
def web() -> Iterator[WebIsolate]:
    """A fresh isolate with the web globals installed lazily, closed after the test."""
    isolate = WebIsolate()
    try:
        yield isolate
    finally:
        isolate.close()


@pytest.fixture
def web_runtime() -> Iterator[WebIsolate]:
    """Like `web`, with the project's runtime loaded too, for console.log output."""
    isolate = WebIsolate(runtime=True)
    try:
        yield isolate
    finally:
        isolate.close()
