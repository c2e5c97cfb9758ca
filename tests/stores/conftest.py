"""The scale-out tests' services: a Redis of their own for each module that needs one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .services import Redis, redis_server


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Redis]:
    with redis_server(tmp_path_factory.mktemp("redis")) as running:
        yield running
