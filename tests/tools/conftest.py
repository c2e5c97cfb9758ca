"""Fixtures for the deterministic tools' tests."""

from __future__ import annotations

import pytest

from .calling import Call, checked_call


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def call() -> Call:
    """Call a tool with valid arguments and get its checked result."""
    return checked_call
